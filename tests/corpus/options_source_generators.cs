// csc: /analyzer:$(Analyzers)/System.Text.RegularExpressions.Generator.dll /analyzer:$(Analyzers)/System.Text.Json.SourceGeneration.dll /analyzer:$(Analyzers)/Microsoft.Interop.LibraryImportGenerator.dll /analyzer:$(Analyzers)/Microsoft.Interop.SourceGeneration.dll
// Source-generated code beside and between awaits: [GeneratedRegex] partial methods and properties,
// System.Text.Json source generation (SerializeAsync/DeserializeAsync/DeserializeAsyncEnumerable with
// a JsonSerializerContext, async converters are not involved), a [LibraryImport] beside async code.
using System;
using System.Collections.Generic;
using System.IO;
using System.Runtime.InteropServices;
using System.Text;
using System.Text.Json;
using System.Text.Json.Serialization;
using System.Text.RegularExpressions;
using System.Threading;
using System.Threading.Tasks;

public sealed record Order(int Id, string Customer, decimal Total, List<string> Lines)
{
    public OrderStatus Status { get; init; }
    public DateOnly? Shipped { get; init; }
}

public enum OrderStatus { New, Paid, Shipped }

public struct Point { public int X { get; set; } public int Y { get; set; } }

[JsonSourceGenerationOptions(WriteIndented = false, PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase, UseStringEnumConverter = true)]
[JsonSerializable(typeof(Order))]
[JsonSerializable(typeof(List<Order>))]
[JsonSerializable(typeof(Point))]
[JsonSerializable(typeof(Dictionary<string, int>))]
internal partial class AppJson : JsonSerializerContext { }

static partial class Parsing
{
    [GeneratedRegex(@"^(?<key>[a-z]+)=(?<value>\d+)$", RegexOptions.IgnoreCase)]
    public static partial Regex KeyValue();

    [GeneratedRegex(@"\b(\w)(\w*)\b")]
    public static partial Regex Word { get; }

    [GeneratedRegex("a+b", RegexOptions.None, matchTimeoutMilliseconds: 1000)]
    private static partial Regex Ab();

    public static async Task<Dictionary<string, int>> ParseAsync(IEnumerable<string> lines)
    {
        var result = new Dictionary<string, int>();
        foreach (var line in lines)
        {
            if (Program.Suspend) await Task.Yield();
            var m = KeyValue().Match(line);
            if (!m.Success) { result["bad"] = result.GetValueOrDefault("bad") + 1; continue; }
            result[m.Groups["key"].Value.ToLowerInvariant()] = int.Parse(m.Groups["value"].ValueSpan) + await Program.Val(0);
        }
        return result;
    }

    public static async Task<string> TitleCase(string s)
    {
        var sb = new StringBuilder();
        int last = 0;
        foreach (Match m in Word.Matches(s))
        {
            sb.Append(s, last, m.Index - last);
            var word = s.AsSpan(m.Index, m.Length);
            sb.Append(char.ToUpperInvariant(word[0])).Append(word[1..]);
            last = m.Index + m.Length;
            await Program.Val(0);
        }
        sb.Append(s, last, s.Length - last);
        return sb.ToString() + "|" + Ab().Count(await Program.Str("aab ab b aaab"));
    }
}

static partial class Native
{
    [LibraryImport("libc", EntryPoint = "strlen", StringMarshalling = StringMarshalling.Utf8)]
    internal static partial nint StrLen(string s);

    [LibraryImport("libc", EntryPoint = "abs")]
    internal static partial int Abs(int x);
}

static class Program
{
    public static bool Suspend;
    public static async Task<int> Val(int v) { if (Suspend) await Task.Yield(); return v; }
    public static async Task<string> Str(string v) { if (Suspend) await Task.Delay(1); return v; }

    static async Task<string> JsonRoundTrip()
    {
        var orders = new List<Order>
        {
            new(1, "ann", 12.50m, new() { "pen", "ink" }) { Status = OrderStatus.Paid },
            new(await Val(2), await Str("bob"), 3m + await Val(1), new() { await Str("cup") }) { Status = OrderStatus.Shipped, Shipped = new DateOnly(2024, 2, await Val(29)) },
        };
        using var ms = new MemoryStream();
        await JsonSerializer.SerializeAsync(ms, orders, AppJson.Default.ListOrder);
        var json = Encoding.UTF8.GetString(ms.ToArray());
        ms.Position = 0;
        var back = await JsonSerializer.DeserializeAsync(ms, AppJson.Default.ListOrder);
        var total = 0m;
        foreach (var o in back!) { total += o.Total; await Val(0); }
        ms.Position = 0;
        var ids = new List<int>();
        await foreach (var o in JsonSerializer.DeserializeAsyncEnumerable(ms, AppJson.Default.Order))
        {
            ids.Add(o!.Id + await Val(100));
        }
        var p = JsonSerializer.Deserialize("{\"x\":" + await Val(3) + ",\"y\":4}", AppJson.Default.Point);
        try
        {
            await JsonSerializer.DeserializeAsync(new MemoryStream(Encoding.UTF8.GetBytes("{\"id\":\"oops\"}")), AppJson.Default.Order);
        }
        catch (JsonException e)
        {
            json += " | error at " + e.Path + await Str("");
        }
        return $"{json} total={total} ids={string.Join(",", ids)} p=({p.X},{p.Y}) eq={back[0] == orders[0]}";
    }

    static async Task<string> NativeCalls()
    {
        var s = await Str("hello");
        nint n = Native.StrLen(s);
        int a = Native.Abs(-await Val(42));
        return $"{n} {a}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"suspend={suspend}");
            var d = await Parsing.ParseAsync(new[] { "alpha=1", "Beta=22", "nope", "gamma=x", "ALPHA=3" });
            Console.WriteLine(JsonSerializer.Serialize(d, AppJson.Default.DictionaryStringInt32));
            Console.WriteLine(await Parsing.TitleCase("the quick brown fox"));
            Console.WriteLine(await JsonRoundTrip());
            Console.WriteLine(await NativeCalls());
        }
    }
}
