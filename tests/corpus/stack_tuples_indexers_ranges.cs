// Ten-element tuples (nested through TRest) built and deconstructed from awaited and logged
// elements of mixed types; two-argument indexers with compound assignment and ??= whose indices and
// values await; Index/Range from awaits on List<T>, arrays and strings while the awaited call grows
// the list; nested object, collection and dictionary initializers with awaited keys, values and
// indexer arguments; collection expressions into ImmutableArray, ImmutableList and HashSet with
// spreads of awaited collections.
using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using System.Threading.Tasks;
class Grid {
  readonly Dictionary<(int, int), int?> cells = new();
  public int? this[int r, int c] { get { Program.Log($"get[{r},{c}]"); return cells.TryGetValue((r, c), out var v) ? v : null; } set { Program.Log($"set[{r},{c}]={value}"); cells[(r, c)] = value; } }
}
class Bag { public List<int> Items = new() { 1, 2, 3 }; public Dictionary<string, int> Map = new(); public Bag? Next; public int Length => Items.Count; public int this[int i] { get { Program.Log($"bag.get[{i}]"); return Items[i]; } set { Program.Log($"bag.set[{i}]={value}"); Items[i] = value; } } }
static class Program {
  static bool Suspend;
  static List<string> log = new();
  public static void Log(string s) => log.Add(s);
  static T L<T>(string s, T v) { log.Add(s + "=" + v); return v; }
  static async Task<T> V<T>(T v, Action? a = null) { if (Suspend) await Task.Yield(); a?.Invoke(); log.Add("V" + v); return v; }
  static async Task<string> Tuples() {
    var t = (L("1", 1), L("2", 2L), await V("3"), L("4", 4m), await V(5.5), L("6", '6'), await V((byte)7), L("8", 8), await V("9"), L("10", (short)10));
    var (a, b, c, d, e, f, g, h, i, j) = (await V(1), L("b", "B"), await V(3L), L("d", 4m), await V(Int128.One), L("f", 6), await V(7.0f), L("h", 'h'), await V(9u), L("j", (sbyte)-1));
    (t.Item8, t.Item9, t.Item1) = (await V(80), t.Item9 + await V("!"), t.Item8);
    return $"{t} {a}{b}{c}{d}{e}{f}{g}{h}{i}{j}";
  }
  static async Task<string> Indexers() {
    var g = new Grid();
    g[L("r", 1), await V(2)] = await V(3);
    g[1, 2] += await V(10);
    g[L("r2", 5), await V(5)] ??= await V(55);
    g[5, 5] ??= await V(66);
    g[await V(1), L("c", 2)] *= L("m", 2) + await V(1);
    var bag = new Bag();
    bag.Items[^1] += await V(100, () => bag.Items.Add(9));
    bag[^L("i", 1)] = await V(7, () => bag.Items.Add(10));
    bag.Items[^await V(2)] = L("x", -1);
    var arr = new[] { 0, 1, 2, 3, 4, 5, 6 };
    var slice = arr[await V(1)..^L("e", 2)];
    var slice2 = arr[L("s", 2)..await V(4)];
    string sub = "abcdefgh"[L("a", 1)..await V(3)] + "xyz"[^await V(1)];
    return $"{g[1, 2]} {g[5, 5]} [{string.Join(",", bag.Items)}] [{string.Join(",", slice)}] [{string.Join(",", slice2)}] {sub}";
  }
  static async Task<string> Initializers() {
    var bag = new Bag {
      Items = { L("i1", 4), await V(5) },
      Map = { ["a"] = await V(1), [L("k", "b")] = L("vb", 2), [await V("c")] = await V(3) },
      [L("idx", 0)] = await V(42),
      Next = new Bag { Items = { await V(6) }, Map = { [await V("z")] = L("vz", 26) }, [await V(1)] = L("n1", 11) },
    };
    ImmutableArray<int> ia = [L("x", 0), .. await V(new[] { 1, 2 }), await V(3), .. bag.Items];
    ImmutableList<string> il = [.. await V(new List<string> { "p" }), L("q", "q")];
    HashSet<int> hs = [await V(1), 1, .. ia, await V(99)];
    ImmutableDictionary<string, int> dict = ImmutableDictionary<string, int>.Empty.Add(L("k1", "k"), await V(1)).SetItem(await V("k"), L("v2", 2));
    return $"[{string.Join(",", bag.Items)}] {string.Join(",", bag.Map.OrderBy(p => p.Key))} [{string.Join(",", bag.Next!.Items)}] {string.Join(",", bag.Next.Map)} [{string.Join(",", ia)}] [{string.Join(",", il)}] {hs.Count} {dict["k"]}";
  }
  static async Task Main() {
    foreach (var x in new[] { false, true }) {
      Suspend = x;
      foreach (var f in new Func<Task<string>>[] { Tuples, Indexers, Initializers }) {
        log.Clear();
        string r; try { r = await f(); } catch (Exception e) { r = "threw " + e.GetType().Name + " " + e.Message; }
        Console.WriteLine(r); Console.WriteLine("  " + string.Join(";", log));
      }
    }
  }
}
