// Exceptions around C# 13/14 features: null-conditional assignment whose awaited right side throws or whose setter throws, collection expressions whose awaited element or spread throws midway, user-defined compound operators with throwing awaited operands, async extension-block methods throwing from a setter, inside a loop with a switch, catch filters, awaits in catch/finally followed by span collection expressions and Lock statements/EnterScope, continue out of a catch.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

sealed class Acc
{
    public int Total;
    public void operator +=(int x) { Program.Log($"Acc+={x}"); Total += x; }
    public void operator ++() { Program.Log("Acc++"); Total++; }
}
struct Cnt
{
    public int N;
    public void operator +=(int x) { Program.Log($"Cnt+={x}"); N += x; }
    public void operator checked +=(int x) { Program.Log($"Cnt checked+={x}"); N = checked(N + x); }
}
sealed class Box
{
    public string Name = "";
    public int Level { get => field; set { Program.Log($"{Name}.Level={value}"); if (value > 100) throw new ArgumentOutOfRangeException(nameof(Level), "too high"); field = value; } }
    public Acc Acc = new();
    public Cnt Cnt;
    public List<int> Items = new();
}

static class BoxExt
{
    extension(Box b)
    {
        public async Task<int> RaiseAsync(int by)
        {
            Program.Log($"{b.Name}.Raise({by})");
            await Program.Pause();
            b.Level += by;
            return b.Level;
        }
        public int Doubled { get => b.Level * 2; set => b.Level = value / 2; }
    }
}

sealed class Boom(string m) : Exception(m);

static class Program
{
    static bool s_suspend;
    static readonly List<string> s_log = new();
    public static void Log(string s) => s_log.Add(s);
    public static async Task Pause() { if (s_suspend) await Task.Yield(); }
    static async Task<int> Val(int x) { Log($"Val({x})"); await Pause(); return x; }
    static async Task<int> Fail(string m) { Log($"Fail({m})"); await Pause(); throw new Boom(m); }
    static int L(string t, int x) { Log(t); return x; }
    static bool Note(string s) { Log("filter:" + s); return true; }
    static readonly Lock s_lock = new();
    static int s_locked;

    static async Task<string> Run(Box? box, int mode)
    {
        var results = new List<string>();
        for (int i = 0; i < 6; i++)
        {
            try
            {
                switch (i)
                {
                    case 0: box?.Level = mode == 0 ? await Fail("nc") : await Val(5); break;
                    case 1: List<int> l = [L("a", 1), mode == 1 ? await Fail("coll") : await Val(2), L("c", 3)]; box?.Items.AddRange(l); break;
                    case 2: box?.Acc += mode == 2 ? await Fail("op") : await Val(3); box?.Cnt += checked(await Val(int.MaxValue) + (mode == 2 ? 1 : 0)); break;
                    case 3: box?.Level = await Val(mode == 3 ? 500 : 7); break;
                    case 4: if (box is not null) { box.Doubled = await box.RaiseAsync(mode == 4 ? 200 : 1) * 2; } break;
                    case 5: int[] arr = [.. Enumerable.Range(0, 3).Select(x => mode == 5 && x == 2 ? throw new Boom("spread") : x), await Val(9)]; box?.Items.AddRange(arr); break;
                }
                results.Add($"{i}ok");
            }
            catch (Boom e) when (Note(e.Message))
            {
                await Pause();
                Span<int> s = [e.Message.Length, i];
                lock (s_lock) { s_locked += s[0]; }
                results.Add($"{i}boom:{e.Message}:{s[0] + s[1]}");
                if (i == 1) continue;
                box?.Level = await Val(i);
            }
            catch (ArgumentOutOfRangeException e)
            {
                results.Add($"{i}range:{e.ParamName}");
                using (s_lock.EnterScope()) { s_locked++; }
                await Pause();
                if (box is not null) box.Acc++;
            }
            catch (OverflowException)
            {
                results.Add($"{i}overflow");
                box?.Cnt += await Val(1);
            }
            finally
            {
                await Pause();
                ReadOnlySpan<char> f = [(char)('a' + i)];
                Log("finally:" + f.ToString());
            }
        }
        return $"{string.Join(",", results)} | {(box is null ? "null" : $"L={box.Level} A={box.Acc.Total} C={box.Cnt.N} I={string.Join(",", box.Items)}")} locked={s_locked}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            s_suspend = suspend;
            Console.WriteLine($"suspend={suspend}");
            for (int mode = -1; mode < 6; mode++)
            {
                foreach (var box in new[] { null, new Box { Name = "b" } })
                {
                    s_log.Clear();
                    s_locked = 0;
                    Console.WriteLine($"  mode={mode} {await Run(box, mode)}");
                    Console.WriteLine($"    log: {string.Join(" ", s_log)}");
                }
            }
        }
    }
}
