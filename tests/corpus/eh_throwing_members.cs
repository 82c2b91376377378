// Exceptions thrown by ordinary members in the middle of expressions that also await: property
// getters and setters, indexers, implicit and explicit conversion operators, user-defined binary
// operators, Deconstruct, ToString inside an interpolation, a custom GetEnumerator/MoveNext in a
// foreach around awaits, Dispose of a using declaration, and a dictionary key whose GetHashCode
// throws. Each throw happens before or after an await of the same expression, so the printed side
// effects show how far the expression got (compound assignments whose getter ran before the await
// and whose setter throws after it, array stores that must not happen, arguments already
// evaluated); catch clauses with filters that read locals assigned after the await, and finally
// blocks that record the state, check that the frame sees the same values as classic async.
using System;
using System.Collections;
using System.Collections.Generic;
using System.Threading.Tasks;

sealed class Fussy
{
    private int value;
    public int GetterFails;
    public int SetterLimit = 100;
    public List<string> Log = new();
    public int Value
    {
        get { Log.Add("get"); if (GetterFails-- > 0) throw new InvalidOperationException("getter refused"); return value; }
        set { Log.Add($"set {value}"); if (value > SetterLimit) throw new ArgumentOutOfRangeException(nameof(value), value, "setter limit"); this.value = value; }
    }
    public int this[int i]
    {
        get { Log.Add($"this[{i}]"); return i < 3 ? i * 10 : throw new IndexOutOfRangeException($"index {i} too big"); }
        set { Log.Add($"this[{i}]={value}"); if (i < 0) throw new KeyNotFoundException($"no slot {i}"); }
    }
}

readonly struct Celsius(double degrees)
{
    public double Degrees => degrees;
    public static implicit operator Celsius(double d) => d < -273.15 ? throw new ArgumentException($"{d} is below absolute zero") : new Celsius(d);
    public static explicit operator int(Celsius c) => c.Degrees > 1000 ? throw new OverflowException($"{c.Degrees} too hot for int") : (int)c.Degrees;
    public static Celsius operator +(Celsius a, Celsius b) => a.Degrees + b.Degrees;
    public void Deconstruct(out int whole, out int tenths)
    {
        if (double.IsNaN(degrees)) throw new FormatException("NaN has no parts");
        whole = (int)degrees; tenths = (int)Math.Round((degrees - whole) * 10);
    }
    public override string ToString() => double.IsInfinity(degrees) ? throw new NotSupportedException("cannot print infinity") : $"{degrees}C";
}

sealed class Countdown(int from, int failAt) : IEnumerable<int>
{
    public IEnumerator<int> GetEnumerator()
    {
        if (from < 0) throw new InvalidOperationException("negative countdown");
        return new E(from, failAt);
    }
    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();
    private sealed class E(int current, int failAt) : IEnumerator<int>
    {
        public int Current { get; private set; }
        object IEnumerator.Current => Current;
        public bool MoveNext()
        {
            if (current == failAt) throw new InvalidDataException2($"failed at {current}");
            Current = current;
            return current-- > 0;
        }
        public void Reset() { }
        public void Dispose() => Program.Log("enumerator disposed");
    }
}

sealed class InvalidDataException2(string message) : Exception(message);

sealed class Resource(string name, bool failDispose) : IDisposable
{
    public void Dispose()
    {
        Program.Log($"dispose {name}");
        if (failDispose) throw new ObjectDisposedException(name, "dispose failed");
    }
}

sealed class BadKey(int id)
{
    public override int GetHashCode() => id < 0 ? throw new NotImplementedException($"hash of {id}") : id;
    public override bool Equals(object? obj) => obj is BadKey k && k.ToString() == ToString();
    public override string ToString() => $"key{id}";
}

static class Program
{
    static bool s_suspend;
    static readonly List<string> s_log = new();
    public static void Log(string s) => s_log.Add(s);

    static async Task<T> Val<T>(T v, string tag = "")
    {
        if (tag.Length > 0) Log(tag);
        if (s_suspend) await Task.Delay(1);
        return v;
    }

    static async Task<string> Run(string name, Func<Task<string>> body)
    {
        s_log.Clear();
        string result;
        try { result = await body(); }
        catch (Exception e) { result = $"{e.GetType().Name}: {e.Message}"; }
        return $"{name}: {result} [{string.Join(", ", s_log)}]";
    }

    static async Task<string> Properties()
    {
        var f = new Fussy { SetterLimit = 10 };
        var lines = new List<string>();
        lines.Add(await Run("compound, setter throws after await", async () => { f.Value += await Val(50, "arg"); return "no throw"; }));
        lines.Add($"  value={f.Value} log={string.Join(",", f.Log)}"); f.Log.Clear();
        f.GetterFails = 1;
        lines.Add(await Run("compound, getter throws before await", async () => { f.Value += await Val(5, "arg"); return "no throw"; }));
        lines.Add($"  value={f.Value} log={string.Join(",", f.Log)}"); f.Log.Clear();
        lines.Add(await Run("indexer get after await", async () => { int i = await Val(2, "i"); return $"{f[i] + f[i + await Val(1, "j")]}"; }));
        lines.Add(await Run("indexer compound set", async () => { f[-1] += await Val(1, "arg"); return "no throw"; }));
        lines.Add($"  log={string.Join(",", f.Log)}"); f.Log.Clear();
        var arr = new int[] { 1, 2, 3 };
        int stage = 0;
        lines.Add(await Run("array store of a throwing sum", async () =>
        {
            try
            {
                stage = 1;
                arr[await Val(0, "idx")] = await Val(100, "lhs") + f[await Val(5, "bad-index")];
                stage = 2;
                return "stored";
            }
            catch (IndexOutOfRangeException e) when (stage == 1 && e.Message.Contains(arr.Length.ToString()) is var hit && !hit)
            {
                return $"filtered at stage {stage}";
            }
            finally { Log($"finally arr={string.Join("/", arr)}"); }
        }));
        return string.Join("\n  ", lines);
    }

    static async Task<string> Conversions()
    {
        var lines = new List<string>();
        lines.Add(await Run("implicit after await", async () => { Celsius c = await Val(-300.0, "d"); return c.ToString(); }));
        lines.Add(await Run("implicit ok, explicit throws", async () => { Celsius c = await Val(2000.0, "d"); int i = (int)c; return $"{i}"; }));
        lines.Add(await Run("operator + then explicit", async () => { Celsius a = 20.5; var s = a + await Val<Celsius>(1.0, "b"); return $"{(int)s} {s}"; }));
        lines.Add(await Run("operator + conversion fails in arg", async () => { Celsius a = 20.5; var s = a + await Val(-500.0, "b"); return $"{s}"; }));
        lines.Add(await Run("deconstruct ok", async () => { var (w, t) = await Val<Celsius>(36.6, "c"); return $"{w}.{t}"; }));
        lines.Add(await Run("deconstruct throws", async () => { int w = -1, t = -1; try { (w, t) = await Val<Celsius>(double.NaN, "c"); } finally { Log($"w={w} t={t}"); } return "no throw"; }));
        lines.Add(await Run("ToString in interpolation", async () => { string s = $"a={await Val("x", "first")} b={await Val<Celsius>(double.PositiveInfinity, "second")} c={await Val(1, "third")}"; return s; }));
        return string.Join("\n  ", lines);
    }

    static async Task<string> Statements()
    {
        var lines = new List<string>();
        lines.Add(await Run("foreach, MoveNext throws", async () =>
        {
            int sum = 0;
            foreach (var i in new Countdown(5, 2)) { sum += await Val(i, $"item{i}"); }
            return $"sum={sum}";
        }));
        lines.Add(await Run("foreach, GetEnumerator throws", async () =>
        {
            int sum = await Val(1, "before");
            foreach (var i in new Countdown(-1, 0)) sum += i;
            return $"sum={sum}";
        }));
        lines.Add(await Run("using, dispose throws after await", async () =>
        {
            using var a = new Resource("a", failDispose: false);
            using var b = new Resource("b", failDispose: true);
            await Val(0, "body");
            return "body done";
        }));
        lines.Add(await Run("using, body and dispose both throw", async () =>
        {
            using (new Resource("c", failDispose: true))
            {
                await Val(0, "body");
                throw new TimeoutException("body failed");
            }
        }));
        lines.Add(await Run("dictionary key hash throws", async () =>
        {
            var d = new Dictionary<BadKey, int> { [new BadKey(1)] = await Val(1, "v1") };
            d[new BadKey(2)] = await Val(2, "v2");
            d[new BadKey(-3)] = await Val(3, "v3");
            return $"count={d.Count}";
        }));
        lines.Add(await Run("args evaluated before a throwing arg", async () =>
        {
            return Combine(await Val("a", "a"), await Val("b", "b"), new Fussy { GetterFails = 1 }.Value, await Val("c", "c"));
        }));
        return string.Join("\n  ", lines);
    }

    static string Combine(string a, string b, int c, string d) => a + b + c + d;

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            s_suspend = suspend;
            Console.WriteLine($"suspend={suspend}");
            Console.WriteLine($"  {await Properties()}");
            Console.WriteLine($"  {await Conversions()}");
            Console.WriteLine($"  {await Statements()}");
        }
    }
}
