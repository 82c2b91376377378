// Generic async methods with awaits in try/catch/finally, exception filters over T, exceptions
// thrown through several generic frames (over int, string, a struct and a class), a generic
// await using over an IAsyncDisposable constraint, and a generic finally that awaits.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

struct Code
{
    public int Value;
    public override string ToString() => $"Code{Value}";
}

sealed class Box<T>
{
    public T Content;
    public Box(T content) { Content = content; }
    public override string ToString() => $"Box({Content})";
}

sealed class FailedWith<T> : Exception
{
    public T Payload;
    public FailedWith(T payload) : base($"failed with {payload}") { Payload = payload; }
}

sealed class Resource : IAsyncDisposable
{
    public string Name = "";
    public async ValueTask DisposeAsync()
    {
        await Program.Echo(Name);
        Console.WriteLine($"  disposed {Name}");
    }
}

static class Program
{
    static bool Suspend;
    static readonly List<string> Log = new();

    public static async Task<T> Echo<T>(T value)
    {
        if (Suspend) await Task.Yield();
        return value;
    }

    static async Task<T> ThrowAfterAwait<T>(T payload)
    {
        await Echo(payload);
        throw new FailedWith<T>(payload);
    }

    static async Task<T> Through<T>(T payload, int depth)
    {
        if (depth == 0)
            return await ThrowAfterAwait(payload);
        try
        {
            return await Through(payload, depth - 1);
        }
        finally
        {
            Log.Add($"finally {depth} {typeof(T).Name}");
            await Echo(depth); // await inside a finally of a generic frame
        }
    }

    static async Task<string> Catch<T>(T payload, int depth)
    {
        try
        {
            var v = await Through(payload, depth);
            return $"returned {v}";
        }
        catch (FailedWith<T> e) when (e.Payload is not null)
        {
            var echoed = await Echo(e.Payload);
            return $"caught {typeof(T).Name} {echoed}";
        }
    }

    static async Task<TResult> Guarded<T, TResult>(T input, Func<T, Task<TResult>> body, TResult onError)
    {
        TResult result = onError;
        try
        {
            try
            {
                result = await body(input);
            }
            catch (Exception e) when (e is FailedWith<T>)
            {
                Log.Add($"guarded caught {e.Message}");
                result = await Echo(onError);
            }
            finally
            {
                Log.Add($"guarded inner finally {input}");
            }
        }
        finally
        {
            await Echo(input);
            Log.Add("guarded outer finally");
        }
        return result;
    }

    static async Task<string> UseAll<T>(T first, T second) where T : IAsyncDisposable
    {
        await using (first)
        {
            await using (second)
            {
                await Echo(0);
                return $"{typeof(T).Name} used";
            }
        }
    }

    static async Task<int> Sum<T>(IEnumerable<T> values, Func<T, int> toInt)
    {
        int total = 0;
        foreach (var value in values) // a generic enumerator disposed in a finally around an await
            total += toInt(await Echo(value));
        return total;
    }

    static void Flush()
    {
        Console.WriteLine("  log: " + string.Join(" | ", Log));
        Log.Clear();
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Catch(5, 2)); Flush();
            Console.WriteLine(await Catch("text", 1)); Flush();
            Console.WriteLine(await Catch(new Code { Value = 9 }, 3)); Flush();
            Console.WriteLine(await Catch(new Box<int>(4), 0)); Flush();
            Console.WriteLine($"Guarded ok = {await Guarded(3, async x => await Echo(x * 2), -1)}"); Flush();
            Console.WriteLine($"Guarded fail = {await Guarded("s", async x => (await ThrowAfterAwait(x)).Length, -1)}"); Flush();
            Console.WriteLine($"Guarded struct = {await Guarded(new Code { Value = 1 }, async c => new Box<Code>(await ThrowAfterAwait(c)), new Box<Code>(default))}"); Flush();
            try
            {
                await Guarded(1, x => Task.FromException<string>(new InvalidOperationException("not caught")), "");
            }
            catch (InvalidOperationException e)
            {
                Console.WriteLine($"escaped: {e.Message}");
            }
            Flush();
            Console.WriteLine(await UseAll(new Resource { Name = "r1" }, new Resource { Name = "r2" }));
            Console.WriteLine($"Sum<string> = {await Sum(new List<string> { "1", "22" }, int.Parse)}");
            Console.WriteLine($"Sum<Code> = {await Sum(new HashSet<Code> { new Code { Value = 5 } }, c => c.Value)}");
        }
    }
}
