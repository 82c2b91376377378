// C# 14 null-conditional assignment with awaits on the right-hand side or in index positions:
// a?.P = await F(), a?.F = await F() on fields and auto-properties, a?.List[await I()] = await V(),
// a?[await I()] = await V() on a user indexer, a?.X += await F() and a?.S ??= await F(), chains
// a?.B?.C = await F(), a?.Struct.Field = await F() through a class, array element targets
// a?.Arr[i++] += await F(), the assignment's value used as an int? expression, and null-conditional
// event subscription with an awaited handler. Null receivers must skip the await entirely (the right
// side is not evaluated), and every operand before the await must survive it: the log shows the order.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

struct Point { public int X; public int Y; }

sealed class Box
{
    public string Name;
    public int Field;
    public int Prop { get { Program.Log($"{Name}.get_Prop"); return field; } set { Program.Log($"{Name}.set_Prop({value})"); field = value; } }
    public string? Text;
    public List<int> List = new() { 0, 0, 0 };
    public int[] Arr = new int[4];
    public Point Pt;
    public Box? Next;
    public event Action<string>? Changed;
    private readonly Dictionary<int, string> map = new();
    public string this[int i] { get => map.TryGetValue(i, out var s) ? s : "-"; set { Program.Log($"{Name}[{i}]={value}"); map[i] = value; } }
    public Box(string name, Box? next = null) { Name = name; Next = next; }
    public void Raise(string s) => Changed?.Invoke(s);
    public override string ToString() => $"{Name}(F={Field} P={Prop} T={Text ?? "null"} L={string.Join(",", List)} A={string.Join(",", Arr)} Pt={Pt.X},{Pt.Y} [1]={this[1]})";
}

static class Program
{
    static bool s_suspend;
    static readonly List<string> s_log = new();
    public static void Log(string s) => s_log.Add(s);

    static async Task<int> Val(int x) { Log($"Val({x})"); if (s_suspend) await Task.Yield(); return x; }
    static async Task<string?> Str(string? s) { Log($"Str({s})"); if (s_suspend) await Task.Delay(1); return s; }
    static async Task<Action<string>> Handler(string tag) { Log($"Handler({tag})"); if (s_suspend) await Task.Yield(); return s => Log($"{tag} got {s}"); }

    static Box? s_box;
    static Box? Get(Box? b) { Log($"Get({b?.Name ?? "null"})"); return b; }

    static async Task<string> Run(Box? a)
    {
        Get(a)?.Field = await Val(1);
        Get(a)?.Prop = await Val(2);
        Get(a)?.Text = await Str("t");
        Get(a)?.List[await Val(1)] = await Val(30);
        Get(a)?[await Val(1)] = (await Str("idx"))!;
        Get(a)?.Prop += await Val(5);
        Get(a)?.Text ??= await Str("never");
        Get(a)?.Next?.Text ??= await Str("next");
        Get(a)?.Next?.Field = await Val(7);
        Get(a)?.Pt.X = await Val(8);
        Get(a)?.Pt.Y -= await Val(9);
        int i = 1;
        Get(a)?.Arr[i++] += await Val(10);
        Get(a)?.Arr[i] = await Val(11) + await Val(12);
        int? r = Get(a)?.Field = await Val(40) + 2;
        int? r2 = (Get(a)?.Prop += await Val(1)) * 2;
        Get(a)?.Changed += await Handler("h1");
        a?.Raise("ping");
        // The receiver is evaluated before the await: a later reassignment of the variable is not seen.
        s_box = a;
        s_box?.Field = await Reassign(s_box);
        return $"{a?.ToString() ?? "null"} r={r?.ToString() ?? "null"} r2={r2?.ToString() ?? "null"} i={i} next={a?.Next?.Text ?? "null"},{a?.Next?.Field}";
    }

    static async Task<int> Reassign(Box? b)
    {
        s_box = null;
        if (s_suspend) await Task.Yield();
        return 99;
    }

    static async Task<string> Generic<T>(T? target, Func<Task<T>> make) where T : class
    {
        List<T>? list = target is null ? null : new List<T> { target };
        list?[0] = await make();
        return list is null ? "none" : list[0]!.ToString()!;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            s_suspend = suspend;
            Console.WriteLine($"suspend={suspend}");
            foreach (var b in new[] { null, new Box("a"), new Box("b", new Box("c")) })
            {
                s_log.Clear();
                string result = await Run(b);
                Console.WriteLine($"  {result}");
                Console.WriteLine($"  log: {string.Join(" ", s_log)}");
            }
            Console.WriteLine($"  generic: {await Generic<string>(null, async () => { await Task.Yield(); return "x"; })} {await Generic("old", async () => { if (s_suspend) await Task.Yield(); return "new"; })}");
        }
    }
}
