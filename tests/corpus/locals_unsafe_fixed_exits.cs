// fixed statements left other than by falling out of them, in async methods whose awaits sit in the
// surrounding try/catch/finally, loops and using blocks: return, break, continue, goto and throw
// from inside a fixed block (Roslyn leaves the pinned local set, or clears it in a finally), fixed
// over a Span (GetPinnableReference), over a user type with GetPinnableReference, over a null or
// empty array, and function pointers taken inside generic methods (shared code); each run without
// and with real suspensions.
using System;
using System.Threading.Tasks;

class Buffer
{
    private readonly int[] data;
    public Buffer(params int[] data) { this.data = data; }
    public ref int GetPinnableReference() => ref data.Length == 0 ? ref System.Runtime.CompilerServices.Unsafe.NullRef<int>() : ref data[0];
    public int Length => data.Length;
}

static class Program
{
    static bool Suspend;

    static async Task Pause()
    {
        if (Suspend)
            await Task.Yield();
    }

    static async Task<T> Echo<T>(T value)
    {
        await Pause();
        return value;
    }

    static async Task<int> ReturnFromFixed(int[] data, int stop)
    {
        var log = 0;
        try
        {
            await Pause();
            unsafe
            {
                fixed (int* p = data)
                {
                    for (int i = 0; i < data.Length; i++)
                        if (p[i] == stop)
                            return i * 1000 + log;
                }
            }
            log = -1;
        }
        finally
        {
            await Pause();
            log += 5;
            Console.WriteLine("  finally after fixed, log=" + log);
        }
        await Pause();
        return log;
    }

    static async Task<string> LoopExits(int[][] rows)
    {
        var text = "";
        for (int r = 0; r < rows.Length; r++)
        {
            int first = -1;
            unsafe
            {
                fixed (int* p = rows[r])
                {
                    if (p == null)
                    {
                        text += "null;";
                        goto next;
                    }
                    if (rows[r].Length == 0)
                        continue;
                    first = *p;
                    if (first < 0)
                        break;
                }
            }
            await Pause();
            text += first + ";";
        next:
            await Pause();
        }
        return text;
    }

    static async Task<string> ThrowFromFixed(string s)
    {
        var log = "";
        for (int attempt = 0; attempt < 2; attempt++)
        {
            try
            {
                unsafe
                {
                    fixed (char* c = s)
                    {
                        if (c[attempt] == 'x')
                            throw new FormatException("x at " + attempt);
                        log += c[attempt];
                    }
                }
                await Pause();
            }
            catch (FormatException e)
            {
                await Pause();
                log += "[" + e.Message + "]";
            }
        }
        return log;
    }

    static async Task<int> SpanAndCustomPinning(int n)
    {
        int total = 0;
        {
            Span<int> span = stackalloc int[n];
            for (int i = 0; i < n; i++) span[i] = i + 1;
            unsafe
            {
                fixed (int* p = span)
                    for (int i = 0; i < n; i++) total += p[i];
            }
        }
        await Pause();
        var buffer = new Buffer(7, 8, 9);
        unsafe
        {
            fixed (int* p = buffer)
                total = total * 100 + p[2];
        }
        await Pause();
        var empty = new Buffer();
        unsafe
        {
            fixed (int* p = empty)
                total += p == null ? 1 : 2;
            fixed (int* q = Array.Empty<int>())
                total += q == null ? 10 : 20;
        }
        await Pause();
        return total;
    }

    static async Task<string> UsingAround(int[] data)
    {
        var log = "";
        await using (var d = new Disposer(() => log += " disposed"))
        {
            int read;
            unsafe
            {
                fixed (int* p = data)
                {
                    read = p[data.Length - 1];
                    if (read > 100)
                        return "big" + read;
                }
            }
            await Pause();
            log += "read " + read;
        }
        return log;
    }

    sealed class Disposer : IAsyncDisposable
    {
        private readonly Action action;
        public Disposer(Action action) { this.action = action; }
        public async ValueTask DisposeAsync()
        {
            await Pause();
            action();
        }
    }

    static Task<T> ViaPointer<T>(T value)
    {
        unsafe
        {
            delegate*<T, Task<T>> p = &Echo<T>;
            return p(value);
        }
    }

    static async Task<string> GenericPointers<T>(T a, T b)
    {
        var first = await ViaPointer(a);
        await Pause();
        Task<T> second;
        unsafe
        {
            delegate*<T, Task<T>> p = &Echo<T>;
            second = p(b);
        }
        return $"{first}|{await second}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"--- suspend={suspend}");
            Console.WriteLine("return " + await ReturnFromFixed(new[] { 4, 5, 6 }, 5));
            Console.WriteLine("return " + await ReturnFromFixed(new[] { 4, 5, 6 }, 9));
            Console.WriteLine("loop " + await LoopExits(new[] { new[] { 1 }, null!, Array.Empty<int>(), new[] { 2, 3 }, new[] { -4 }, new[] { 5 } }));
            Console.WriteLine("throw " + await ThrowFromFixed("ax"));
            Console.WriteLine("throw " + await ThrowFromFixed("xb"));
            Console.WriteLine("span " + await SpanAndCustomPinning(4));
            Console.WriteLine("using " + await UsingAround(new[] { 1, 2 }));
            Console.WriteLine("using " + await UsingAround(new[] { 1, 200 }));
            Console.WriteLine("generic " + await GenericPointers("a", "b"));
            Console.WriteLine("generic " + await GenericPointers(1, 2));
            Console.WriteLine("generic " + await GenericPointers((1, "x"), (2, "y")));
        }
    }
}
