// [module: SkipLocalsInit] (every method, state machines included, skips zeroing its locals) with
// async methods whose locals are all assigned before being read: stackalloc buffers filled before
// the first await and again after each resumption, structs assigned field by field, out locals,
// locals declared inside loops that suspend, and attributed async local functions and lambdas
// ([MethodImpl] on a local function, a custom attribute on a lambda read through Delegate.Method).
using System;
using System.Reflection;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

[module: SkipLocalsInit]

[AttributeUsage(AttributeTargets.Method)]
sealed class RouteAttribute(string path) : Attribute
{
    public string Path { get; } = path;
}

struct Stats
{
    public int Count;
    public long Sum;
    public double Mean => Count == 0 ? 0 : (double)Sum / Count;
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static int Fill(int n, int seed)
    {
        Span<int> buffer = stackalloc int[n];
        for (int i = 0; i < buffer.Length; i++)
            buffer[i] = seed * i;
        int total = 0;
        foreach (var v in buffer)
            total += v;
        return total;
    }

    static bool TryParse(string s, out int value)
    {
        value = 0;
        foreach (var c in s)
        {
            if (c < '0' || c > '9') return false;
            value = value * 10 + (c - '0');
        }
        return s.Length > 0;
    }

    [SkipLocalsInit]
    static async Task<string> Crunch(string[] inputs)
    {
        Stats stats;
        stats.Count = 0;
        stats.Sum = 0;
        int checksum = Fill(8, 3);
        await Pause();
        foreach (var input in inputs)
        {
            int parsed;
            if (!TryParse(input, out parsed))
            {
                await Pause();
                continue;
            }
            Span<byte> scratch = stackalloc byte[16];
            scratch.Fill((byte)(parsed & 0xFF));
            int local = scratch[3] + scratch[15];
            await Pause();
            stats.Count++;
            stats.Sum += parsed + local;
            checksum ^= Fill(4, parsed);
        }
        Guid guid;
        guid = new Guid(checksum, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
        await Pause();
        return $"count={stats.Count} sum={stats.Sum} mean={stats.Mean:F2} checksum={checksum} guid={guid}";
    }

    static async Task<string> WithLocals(int n)
    {
        [MethodImpl(MethodImplOptions.NoInlining)]
        async Task<int> Square(int x)
        {
            await Pause();
            return x * x;
        }

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        static async ValueTask<int> Twice(int x) => x * 2;

        int total = 0;
        for (int i = 0; i < n; i++)
        {
            (int a, int b) pair;
            pair.a = await Square(i);
            pair.b = await Twice(i);
            total += pair.a - pair.b;
        }
        return $"locals {total}";
    }

    static async Task Main()
    {
        Func<int, Task<string>> handler = [Route("/items")] async (int id) =>
        {
            await Pause();
            return $"item {id}";
        };
        var route = handler.Method.GetCustomAttribute<RouteAttribute>();
        Console.WriteLine($"route {route?.Path ?? "none"} returns {handler.Method.ReturnType.Name} params {handler.Method.GetParameters().Length}");
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Crunch(new[] { "12", "x", "300", "", "7" }));
            Console.WriteLine(await WithLocals(5));
            Console.WriteLine(await handler(4));
        }
    }
}
