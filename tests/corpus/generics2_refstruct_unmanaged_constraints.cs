// Exotic constraints on async methods and types: `allows ref struct` type parameters instantiated
// with Span<T> and user ref structs (T only passed on, default(T) on one side of an await),
// `unmanaged` with sizeof(T), T* and stackalloc T[n] between awaits, `struct` with T? locals
// across awaits, Enum and Delegate constraints, new() after an await, notnull and class?.
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

ref struct Cursor
{
    public int Pos;
    public override string ToString() => $"Cursor({Pos})";
}

enum Color : byte { Red = 1, Green = 2, Blue = 4 }
[Flags] enum Big : long { None = 0, A = 1L << 40, B = 1L << 50 }

struct Pixel
{
    public byte R, G, B;
    public override string ToString() => $"#{R:X2}{G:X2}{B:X2}";
}

static class Helpers
{
    public static string Name<T>() where T : allows ref struct => typeof(T).Name;
    public static int Probe<T>(T value) where T : allows ref struct => typeof(T).IsValueType ? 1 : 2;
    public static string Show<T>(scoped ref T value) where T : allows ref struct => $"{typeof(T).Name}:byref";
}

sealed class Box<T> where T : allows ref struct
{
    public readonly List<string> Log = new();

    public async Task<string> Describe<U>(int n) where U : allows ref struct
    {
        Log.Add($"{Helpers.Name<T>()}/{Helpers.Name<U>()}");
        await Program.Pause();
        int probe;
        {
            T local = default;
            probe = Helpers.Probe(local);
            probe += Helpers.Show(ref local).Length;
        }
        await Program.Pause();
        Log.Add($"after {n}");
        return $"{Helpers.Name<T>()}+{Helpers.Name<U>()}:{probe}:{n}";
    }

    public static async ValueTask<int> Count(int depth)
    {
        if (depth == 0)
            return 0;
        await Program.Pause();
        return 1 + await Box<T>.Count(depth - 1);
    }
}

struct RefHost<T> where T : allows ref struct
{
    public int Calls;

    public async Task<int> Bump(int by)
    {
        Calls += by;
        await Program.Pause();
        return by * 2 + Helpers.Name<T>().Length;
    }
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<string> Names<T, U>(int n) where T : allows ref struct where U : struct, allows ref struct
    {
        var first = Helpers.Name<T>();
        await Pause();
        var second = Helpers.Name<U>();
        for (int i = 0; i < n; i++)
        {
            await Pause();
            U u = default;
            second += Helpers.Probe(u);
        }
        return first + "|" + second;
    }

    static async Task<string> Bytes<T>(T value, int count) where T : unmanaged
    {
        int size;
        unsafe { size = sizeof(T); }
        await Pause();
        string text;
        unsafe
        {
            T* buffer = stackalloc T[count];
            for (int i = 0; i < count; i++)
                buffer[i] = value;
            byte* raw = (byte*)buffer;
            int sum = 0;
            for (int i = 0; i < size * count; i++)
                sum += raw[i];
            text = $"{typeof(T).Name} size={size} sum={sum}";
        }
        await Pause();
        Span<T> span = stackalloc T[2];
        span[1] = value;
        unsafe
        {
            fixed (T* p = span)
                text += $" second={p[1]}";
        }
        await Pause();
        unsafe { text += $" again={sizeof(T) * count}"; }
        return text;
    }

    static async Task<T> ReadAt<T>(T[] array, int index) where T : unmanaged
    {
        T result;
        unsafe
        {
            fixed (T* p = array)
            {
                result = p[index];
            }
        }
        await Pause();
        unsafe
        {
            fixed (T* p = &array[0])
            {
                result = p[(index + 1) % array.Length];
            }
        }
        return result;
    }

    static async Task<string> Nullables<T>(T? a, T b) where T : struct, IEquatable<T>
    {
        T? local = a;
        T? other = null;
        await Pause();
        other = local.HasValue ? b : default(T?);
        await Pause();
        bool same = local.HasValue && local.Value.Equals(b);
        local = local ?? b;
        await Pause();
        return $"{typeof(T).Name}: a={a?.ToString() ?? "null"} local={local} other={(other.HasValue ? other.Value.ToString() : "null")} same={same} eq={EqualityComparer<T?>.Default.Equals(local, other)}";
    }

    static async Task<string> Flags<TEnum>(TEnum value, TEnum flag) where TEnum : struct, Enum
    {
        await Pause();
        bool has = value.HasFlag(flag);
        var names = Enum.GetNames<TEnum>();
        await Pause();
        long raw = Convert.ToInt64(value);
        var underlying = Enum.GetUnderlyingType(typeof(TEnum)).Name;
        TEnum parsed = Enum.Parse<TEnum>(names[^1]);
        await Pause();
        return $"{value} has {flag}={has} raw={raw} under={underlying} last={parsed} size={Unsafe.SizeOf<TEnum>()}";
    }

    static async Task<string> Invoke<TDelegate>(TDelegate d, params object[] args) where TDelegate : Delegate
    {
        await Pause();
        var result = d.DynamicInvoke(args);
        await Pause();
        var combined = (TDelegate?)Delegate.Combine(d, d);
        return $"{typeof(TDelegate).Name}: {result} list={combined!.GetInvocationList().Length}";
    }

    static async Task<string> Fresh<T>(int n) where T : class, new()
    {
        var list = new List<T>();
        for (int i = 0; i < n; i++)
        {
            await Pause();
            list.Add(new T());
        }
        await Pause();
        var last = new T();
        return $"{typeof(T).Name} x{list.Count} last={last}";
    }

    static async Task<string> FreshStruct<T>() where T : struct
    {
        await Pause();
        T made = new T();
        await Pause();
        return $"{made}";
    }

    static async Task<string> NotNull<TKey>(TKey key) where TKey : notnull
    {
        var dict = new Dictionary<TKey, int> { [key] = 1 };
        await Pause();
        dict[key] += 41;
        return $"{key}={dict[key]}";
    }

    static async Task<string> MaybeClass<T>(T? value) where T : class?
    {
        await Pause();
        return value?.ToString() ?? $"<null {typeof(T).Name}>";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            var box = new Box<Span<int>>();
            Console.WriteLine(await box.Describe<Cursor>(3));
            Console.WriteLine(await box.Describe<string>(4));
            Console.WriteLine(string.Join(", ", box.Log));
            var box2 = new Box<ReadOnlySpan<char>>();
            Console.WriteLine(await box2.Describe<int>(5));
            var box3 = new Box<object>();
            Console.WriteLine(await box3.Describe<Cursor>(6));
            Console.WriteLine($"{await Box<Cursor>.Count(3)} {await Box<int>.Count(2)} {await Box<string>.Count(1)}");
            var host = new RefHost<Span<byte>>();
            Console.WriteLine($"{await host.Bump(2)} {await host.Bump(3)} calls={host.Calls}");
            Console.WriteLine(await Names<Span<char>, Cursor>(2));
            Console.WriteLine(await Names<string, int>(1));
            Console.WriteLine(await Bytes(0x01020304, 3));
            Console.WriteLine(await Bytes((byte)7, 5));
            Console.WriteLine(await Bytes(new Pixel { R = 1, G = 2, B = 3 }, 2));
            Console.WriteLine(await Bytes(Color.Blue, 4));
            Console.WriteLine($"{await ReadAt(new[] { 1.5, 2.5, 3.5 }, 1)} {await ReadAt(new[] { 'x', 'y' }, 1)} {await ReadAt(new[] { new Pixel { R = 9 } }, 0)}");
            Console.WriteLine(await Nullables<int>(5, 5));
            Console.WriteLine(await Nullables<int>(null, 5));
            Console.WriteLine(await Nullables<Guid>(Guid.Empty, Guid.Empty));
            Console.WriteLine(await Nullables<decimal>(1.5m, 2.5m));
            Console.WriteLine(await Flags(Color.Red | Color.Blue, Color.Blue));
            Console.WriteLine(await Flags(Big.A, Big.B));
            Console.WriteLine(await Invoke<Func<int, int>>(x => x * 3, 14));
            Console.WriteLine(await Invoke<Func<string>>(() => "hi"));
            Console.WriteLine(await Fresh<List<int>>(2));
            Console.WriteLine(await Fresh<object>(1));
            Console.WriteLine($"{await FreshStruct<Pixel>()} {await FreshStruct<int>()} {await FreshStruct<(int, string)>()}");
            Console.WriteLine($"{await NotNull("k")} {await NotNull(7)} {await NotNull(Color.Green)}");
            Console.WriteLine($"{await MaybeClass<string?>(null)} {await MaybeClass("x")} {await MaybeClass<object>(new object())}");
        }
    }
}
