// C# 14 null-conditional assignment combined with user-defined compound operators (struct field, struct array element, class), extension-block properties as targets, awaited receivers, nullable ??= and value used as argument/pattern.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

struct Vec
{
    public int X, Y;
    public void operator +=(int k) { Program.Log($"Vec+={k}"); X += k; Y += k; }
    public void operator ++() { Program.Log("Vec++"); X++; }
    public override string ToString() => $"({X},{Y})";
}

sealed class Acc
{
    public int Total;
    public void operator +=(int x) { Program.Log($"Acc+={x}"); Total += x; }
    public void operator -=(int x) { Program.Log($"Acc-={x}"); Total -= x; }
    public void operator ++() { Program.Log("Acc++"); Total++; }
    public override string ToString() => $"Acc{Total}";
}

sealed class Holder
{
    public string Name = "";
    public Vec V;
    public Vec[] Vs = new Vec[2];
    public Acc A = new();
    public Acc? MaybeA;
    public int? N;
    public int[] Arr = { 1, 2, 3 };
    public Dictionary<string, int> Map = new();
    public Holder? Next;
    public override string ToString() => $"{Name}:V={V} Vs={Vs[0]}{Vs[1]} A={A} MA={MaybeA?.ToString() ?? "null"} N={N?.ToString() ?? "null"} Arr={string.Join(",", Arr)} Map={string.Join(",", Map)}";
}

static class Ext
{
    extension(Holder h)
    {
        public int Sum { get { Program.Log($"{h.Name}.get_Sum"); return h.Arr[0] + h.Arr[1] + h.Arr[2]; } set { Program.Log($"{h.Name}.set_Sum({value})"); h.Arr[0] = value; } }
        public string Tag { get => h.Name; set { Program.Log($"{h.Name}.set_Tag({value})"); h.Name = value; } }
    }
}

static class Program
{
    static bool s_suspend;
    static readonly List<string> s_log = new();
    public static void Log(string s) => s_log.Add(s);
    static async Task<int> Val(int x) { Log($"Val({x})"); if (s_suspend) await Task.Yield(); return x; }
    static async Task<string> Str(string x) { Log($"Str({x})"); if (s_suspend) await Task.Yield(); return x; }
    static async Task<Holder?> Get(Holder? h) { Log($"Get({h?.Name ?? "null"})"); if (s_suspend) await Task.Yield(); return h; }
    static int Idx(int i) { Log($"Idx({i})"); return i; }
    static string Show(int? x) => x?.ToString() ?? "null";

    static async Task<string> Run(Holder? h)
    {
        h?.V += await Val(2);
        h?.Vs[Idx(1)] += await Val(3);
        h?.A += await Val(4);
        h?.A -= await Val(1);
        h?.MaybeA?.Total = await Val(9);
        h?.MaybeA ??= new Acc { Total = await Val(50) };
        h?.MaybeA += await Val(5);
        h?.N ??= await Val(7);
        h?.N += await Val(1);
        h?.Arr[Idx(2)] *= await Val(10);
        h?.Map[await Str("k")] = await Val(11);
        h?.Sum = await Val(100);
        h?.Sum += await Val(1);
        h?.Tag = await Str("renamed") + h.Name;
        (await Get(h))?.Arr[Idx(1)] = await Val(20);
        (await Get(h))?.Next?.A += await Val(30);
        string? t = h?.Tag = await Str("t2");
        int? r = (h?.Arr[0] = await Val(5)) + await Val(1);
        Use(h?.N = await Val(77), await Val(78));
        bool b = (h?.Sum = await Val(3)) is int x && x > await Val(2);
        return $"{h?.ToString() ?? "null"} t={t ?? "null"} r={Show(r)} b={b} next={h?.Next?.A}";
    }

    static void Use(int? a, int b) => Log($"Use({Show(a)},{b})");

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            s_suspend = suspend;
            Console.WriteLine($"suspend={suspend}");
            foreach (var h in new[] { null, new Holder { Name = "a" }, new Holder { Name = "b", Next = new Holder { Name = "c" }, MaybeA = new Acc() } })
            {
                s_log.Clear();
                Console.WriteLine($"  {await Run(h)}");
                Console.WriteLine($"  log: {string.Join(" ", s_log)}");
            }
        }
    }
}
