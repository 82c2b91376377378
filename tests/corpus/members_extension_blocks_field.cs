// C# 14 members around awaits: extension blocks (extension(T x) { ... }) with instance and static
// extension properties, async extension methods declared inside extension blocks (instance, static,
// generic extension<T>(List<T>) and on a struct receiver) awaited and their results combined,
// extension properties read and assigned after awaits and in compound assignments with awaited right
// sides; the field keyword in properties whose accessors validate, count and lazily initialize and
// are called between awaits (including P += await F() and P ??= await F()); partial properties,
// partial events and partial constructors (C# 14) whose implementing parts run between awaits; and
// C# 13 nameof of unbound generic types, the \e escape, and lambdas with ref/out parameter modifiers
// but no parameter types.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading.Tasks;

struct Temp { public int Celsius; public Temp(int c) { Celsius = c; } }

sealed class Account
{
    public int Reads;
    public string Owner { get => field ?? "<none>"; set => field = value?.Trim() ?? throw new ArgumentNullException(nameof(value)); }
    public int Balance { get { Reads++; return field; } set { if (value < 0) throw new InvalidOperationException($"negative {value}"); field = value; } }
    public List<string> History => field ??= new List<string> { "opened" };
    public string? Note { get; set => field = value is null ? null : $"[{value}]"; }
}

static class Extensions
{
    extension(Account a)
    {
        public string Summary => $"{a.Owner}:{a.Balance}";
        public int Doubled { get => a.Balance * 2; set => a.Balance = value / 2; }
        public async Task<int> DepositAsync(int amount)
        {
            await Program.Pause();
            a.Balance += amount;
            a.History.Add($"+{amount}");
            return a.Balance;
        }
        public static Account Open(string owner) => new Account { Owner = owner };
        public static async Task<Account> OpenAsync(string owner, int initial)
        {
            var acc = Account.Open(owner);
            await acc.DepositAsync(initial);
            return acc;
        }
        public static int Opened => 7;
    }

    extension<T>(List<T> list) where T : notnull
    {
        public T? Second => list.Count > 1 ? list[1] : default;
        public async Task<string> JoinAsync(string sep)
        {
            var parts = new List<string>();
            foreach (var item in list) { await Program.Pause(); parts.Add(item.ToString()!); }
            return string.Join(sep, parts);
        }
    }

    extension(Temp t)
    {
        public int Fahrenheit => t.Celsius * 9 / 5 + 32;
        public async Task<Temp> WarmAsync(int by) { await Program.Pause(); return new Temp(t.Celsius + by); }
        public static Temp Freezing => new Temp(0);
    }

    extension(ref Temp t)
    {
        public void Bump() => t.Celsius++;
    }

    extension(int n)
    {
        public bool IsEven => n % 2 == 0;
        public static int Parse2(string s) => int.Parse(s) * 2;
    }
}

partial class Widget
{
    public partial string Label { get; set; }
    public partial event Action<string>? Clicked;
    public partial Widget(string label);
}

partial class Widget
{
    private readonly List<string> calls = new();
    public partial string Label { get => field; set { calls.Add($"set:{value}"); field = value; } }
    private Action<string>? clicked;
    public partial event Action<string>? Clicked { add { calls.Add("add"); clicked += value; } remove { calls.Add("remove"); clicked -= value; } }
    public partial Widget(string label) { Label = label; calls.Add("ctor"); }
    public void Click() => clicked?.Invoke(Label);
    public string Calls => string.Join(",", calls);
}

delegate bool TryParser(string text, out int value);
delegate void Doubler(ref int value);

static class Program
{
    static bool s_suspend;
    public static async Task Pause() { if (s_suspend) await Task.Yield(); }
    static async Task<int> Val(int x) { await Pause(); return x; }
    static async Task<string> Str(string s) { await Pause(); return s; }

    static async Task<string> Extensions1()
    {
        var acc = await Account.OpenAsync(" ann ", await Val(10));
        string s1 = acc.Summary;
        int after = await acc.DepositAsync(await Val(5)) + await acc.DepositAsync(1);
        acc.Doubled = await Val(100);
        string s2 = acc.Summary;
        acc.Doubled += await Val(20);
        int opened = Account.Opened + await Val(1);
        var list = new List<int> { 3, await Val(4), 5 };
        string joined = await list.JoinAsync(await Str("-"));
        int second = list.Second + await Val(1000);
        var t = Temp.Freezing;
        t.Bump();
        t = await t.WarmAsync(await Val(20));
        t.Bump();
        int f = t.Fahrenheit;
        bool even = (await Val(6)).IsEven && !int.Parse2(await Str("21")).IsEven;
        return $"{s1} {after} {s2} {acc.Summary} {opened} {joined} {second} {t.Celsius} {f} {even} {string.Join("/", acc.History)}";
    }

    static async Task<string> FieldKeyword()
    {
        var acc = new Account();
        string before = acc.Owner;
        acc.Owner = await Str("  bob  ");
        acc.Balance = await Val(3);
        acc.Balance += await Val(4);
        acc.Balance *= await Val(2) + acc.Balance;
        string err;
        try { acc.Balance -= await Val(1000); err = "none"; }
        catch (InvalidOperationException e) { err = e.Message; }
        acc.Note ??= await Str("first");
        acc.Note ??= await Str("second");
        acc.History.Add(await Str("x"));
        return $"{before} {acc.Owner} {acc.Balance} reads={acc.Reads} err={err} note={acc.Note} hist={string.Join("/", acc.History)}";
    }

    static async Task<string> Partials()
    {
        var w = new Widget(await Str("ok"));
        var got = new List<string>();
        Action<string> h = got.Add;
        w.Clicked += h;
        w.Label = await Str("go") + await Str("!");
        w.Click();
        w.Clicked -= h;
        w.Label += await Str("?");
        w.Click();
        return $"{w.Label} {string.Join(",", got)} {w.Calls}";
    }

    static async Task<string> Misc()
    {
        string names = $"{nameof(List<>)} {nameof(Dictionary<,>)} {nameof(Dictionary<,>.Keys)} {nameof(Func<,,>)}";
        string esc = await Str("\e[1m") + "bold" + "\e[0m";
        TryParser tp = (text, out value) => int.TryParse(text, out value);
        Doubler d = (ref v) => v *= 2;
        int parsed = tp(await Str("41"), out var p) ? p : -1;
        d(ref parsed);
        parsed += await Val(1);
        Func<int, int, Task<int>> add = async (x, y) => await Val(x) + y;
        int sum = await add(await Val(1), 2);
        return $"{names} {esc.Replace("\e", "ESC")} {esc.Length} {parsed} {sum} {(int)'\e'}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            s_suspend = suspend;
            Console.WriteLine($"suspend={suspend}");
            Console.WriteLine($"  extensions: {await Extensions1()}");
            Console.WriteLine($"  field: {await FieldKeyword()}");
            Console.WriteLine($"  partials: {await Partials()}");
            Console.WriteLine($"  misc: {await Misc()}");
        }
    }
}
