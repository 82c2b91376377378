// unsafe blocks and fixed statements (pinned locals) in async methods between awaits: pointer
// arithmetic whose results land in ordinary locals that live across awaits, fixed over arrays,
// strings and struct fields, nested fixed, fixed in loops that await each iteration, fixed inside
// try/finally around awaits, pointers into a stackalloc; function pointers (delegate* managed) to
// static, generic and ValueTask-returning async methods, called in unsafe blocks and the tasks
// awaited afterwards; each run without and with real suspensions.
using System;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

struct Pair
{
    public int A;
    public int B;
}

class Holder
{
    public Pair P;
    public int[] Data = { 10, 20, 30, 40, 50 };
    public string Name = "holder";
}

static unsafe class Pointers
{
    public static delegate* managed<int, Task<int>> Doubler = &Program.Double;
    public static delegate* managed<string, int, Task<string>> Repeater = &Program.Repeat;
    public static delegate*<int, ValueTask<long>> Squarer = &Program.Square;
    public static delegate*<int, Task<int>> GenericEcho = &Program.Echo<int>;
    public static delegate*<string, Task<string>> GenericEchoRef = &Program.Echo<string>;

    public static Task<int> CallDoubler(int x) => Doubler(x);
}

static class Program
{
    static bool Suspend;

    static async Task Pause()
    {
        if (Suspend)
            await Task.Yield();
    }

    public static async Task<int> Double(int x)
    {
        await Pause();
        return x * 2;
    }

    public static async Task<string> Repeat(string s, int n)
    {
        var result = "";
        for (int i = 0; i < n; i++)
        {
            await Pause();
            result += s;
        }
        return result;
    }

    public static async ValueTask<long> Square(int x)
    {
        await Pause();
        return (long)x * x;
    }

    public static async Task<T> Echo<T>(T value)
    {
        await Pause();
        return value;
    }

    static async Task<int> SumThroughPointer(int[] data)
    {
        int sum = 0;
        int last;
        unsafe
        {
            fixed (int* p = data)
            {
                int* end = p + data.Length;
                for (int* q = p; q < end; q++)
                    sum += *q;
                last = *(end - 1);
            }
        }
        await Pause();
        sum += last;
        unsafe
        {
            fixed (int* p = &data[1])
            {
                sum += p[0] * 100 + p[1];
            }
        }
        await Pause();
        return sum;
    }

    static async Task<string> StringChars(string text)
    {
        int hash = 0;
        int length;
        unsafe
        {
            fixed (char* c = text)
            {
                length = 0;
                for (char* q = c; *q != '\0'; q++)
                {
                    hash = hash * 31 + *q;
                    length++;
                }
            }
        }
        await Pause();
        char upper;
        unsafe
        {
            fixed (char* c = text)
                upper = char.ToUpperInvariant(c[length / 2]);
        }
        await Pause();
        return $"{text}: len={length} hash={hash} mid={upper}";
    }

    static async Task<int> StructField(Holder holder)
    {
        long offset;
        unsafe
        {
            fixed (Pair* pp = &holder.P)
            {
                pp->A = 7;
                pp->B = 9;
                offset = (byte*)&pp->B - (byte*)&pp->A;
            }
        }
        await Pause();
        holder.P.A += 1;
        int total;
        unsafe
        {
            fixed (int* a = &holder.P.A)
            fixed (int* b = &holder.P.B)
            fixed (char* n = holder.Name)
            {
                total = *a + *b + n[0];
            }
        }
        await Pause();
        return total * 100 + (int)offset;
    }

    static async Task<string> LoopFixed(int[] data)
    {
        var log = "";
        for (int i = 0; i < data.Length; i++)
        {
            int read;
            unsafe
            {
                fixed (int* p = data)
                {
                    read = *(p + i);
                    *(p + i) = read + 1;
                }
            }
            await Pause();
            log += read + ":" + data[i] + " ";
        }
        return log.TrimEnd();
    }

    static async Task<string> FixedInTryFinally(int[] data)
    {
        var log = "";
        int captured = -1;
        try
        {
            unsafe
            {
                fixed (int* p = data)
                    captured = p[2];
            }
            await Pause();
            log += "try " + captured;
            if (captured > 25)
                throw new InvalidOperationException("big " + captured);
        }
        catch (InvalidOperationException e)
        {
            await Pause();
            unsafe
            {
                fixed (int* p = data)
                    captured += p[0];
            }
            log += " catch " + e.Message + " " + captured;
        }
        finally
        {
            await Pause();
            unsafe
            {
                fixed (int* p = data)
                    p[4] = captured;
            }
            log += " finally " + data[4];
        }
        return log;
    }

    static async Task<int> StackallocPointer(int n)
    {
        int result;
        unsafe
        {
            int* buffer = stackalloc int[n];
            for (int i = 0; i < n; i++)
                buffer[i] = i * i;
            result = 0;
            for (int* q = buffer + n - 1; q >= buffer; q--)
                result = result * 3 + *q;
        }
        await Pause();
        unsafe
        {
            byte* bytes = stackalloc byte[4];
            *(int*)bytes = result;
            result ^= bytes[0];
        }
        return result;
    }

    static async Task<long> AddressArithmetic(long[] values)
    {
        nint distance;
        long picked;
        unsafe
        {
            fixed (long* first = &values[0])
            fixed (long* last = &values[^1])
            {
                distance = (nint)(last - first);
                picked = *(first + distance / 2);
            }
        }
        await Pause();
        long more = 0;
        for (nint i = 0; i < distance; i++)
        {
            await Pause();
            unsafe
            {
                fixed (long* p = values)
                    more += p[i];
            }
        }
        return picked * 1000 + more + distance;
    }

    static async Task<string> FunctionPointers()
    {
        Task<int> doubled;
        Task<string> repeated;
        ValueTask<long> squared;
        Task<int> echoed;
        Task<string> echoedRef;
        unsafe
        {
            doubled = Pointers.Doubler(21);
            repeated = Pointers.Repeater("ab", 3);
            squared = Pointers.Squarer(12);
            echoed = Pointers.GenericEcho(5);
            echoedRef = Pointers.GenericEchoRef("ref");
        }
        var a = await doubled;
        var b = await repeated;
        var c = await squared;
        var d = await echoed;
        var e = await echoedRef;
        var f = await Pointers.CallDoubler(a);
        Task<int> local;
        unsafe
        {
            delegate*<int, Task<int>> fp = &Double;
            delegate*<int, Task<int>> gp = &Echo<int>;
            local = fp(d) ;
            local = Combine(local, gp(100));
        }
        var g = await local;
        return $"{a} {b} {c} {d} {e} {f} {g}";
    }

    static async Task<int> Combine(Task<int> x, Task<int> y) => await x + await y;

    static async Task<int> PointerIdentity()
    {
        bool same;
        bool sameGeneric;
        unsafe
        {
            delegate*<int, Task<int>> fp = &Double;
            same = fp == Pointers.Doubler;
            delegate*<int, Task<int>> g1 = &Echo<int>;
            sameGeneric = g1 == Pointers.GenericEcho;
        }
        await Pause();
        return (same ? 1 : 0) + (sameGeneric ? 2 : 0);
    }

    static async Task<int> PointerIntoFieldAcrossAwait(Holder h)
    {
        // the pointer's value (an address) is converted to an ordinary number and back only
        // within one fixed block; the index computed through it lives across the await
        int index;
        unsafe
        {
            fixed (int* p = h.Data)
            {
                int* found = p;
                while (*found != 30) found++;
                index = (int)(found - p);
            }
        }
        await Pause();
        h.Data[index] = -1;
        await Pause();
        return index * 10 + h.Data[index];
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"--- suspend={suspend}");
            Console.WriteLine("sum " + await SumThroughPointer(new[] { 1, 2, 3, 4 }));
            Console.WriteLine(await StringChars("pinned"));
            Console.WriteLine("struct " + await StructField(new Holder()));
            Console.WriteLine("loop " + await LoopFixed(new[] { 5, 6, 7 }));
            Console.WriteLine(await FixedInTryFinally(new[] { 10, 20, 30, 40, 50 }));
            Console.WriteLine(await FixedInTryFinally(new[] { 1, 2, 3, 4, 5 }));
            Console.WriteLine("stackalloc " + await StackallocPointer(6));
            Console.WriteLine("address " + await AddressArithmetic(new long[] { 3, 1, 4, 1, 5, 9, 2 }));
            Console.WriteLine("fnptr " + await FunctionPointers());
            Console.WriteLine("identity " + await PointerIdentity());
            Console.WriteLine("index " + await PointerIntoFieldAcrossAwait(new Holder()));
        }
    }
}
