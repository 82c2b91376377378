// Async methods at every level of nested generic types: Outer<T>.Middle<U>.Inner<V>, a non-generic
// class nested in a generic one (it repeats the outer parameter), generic methods on the innermost
// type, static async methods on nested generic types, and calls between the levels with mixed
// reference and value type arguments.
using System;
using System.Threading.Tasks;

class Outer<T>
{
    public T Value = default!;

    public async Task<string> Top()
    {
        await Program.Pause();
        return $"Outer<{typeof(T).Name}>({Value})";
    }

    public class Plain
    {
        public async Task<string> Describe(T value)
        {
            await Program.Pause();
            return $"Plain in Outer<{typeof(T).Name}>: {value}";
        }
    }

    public class Middle<U>
    {
        public U Extra = default!;

        public static async Task<(T, U)> Make(T t, U u)
        {
            await Program.Pause();
            return (t, u);
        }

        public sealed class Inner<V>
        {
            public async Task<string> All(T t, U u, V v)
            {
                var pair = await Make(t, u);
                await Program.Pause();
                return $"{typeof(T).Name}/{typeof(U).Name}/{typeof(V).Name}: {pair} {v}";
            }

            public async Task<string> Generic<W>(W w, Func<W, Task<V>> convert)
            {
                V v = await convert(w);
                var outer = new Outer<T>();
                return $"{await outer.Top()} {typeof(W).Name}->{v}";
            }
        }
    }
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await new Outer<int> { Value = 3 }.Top());
            Console.WriteLine(await new Outer<string>.Plain().Describe("s"));
            Console.WriteLine(await new Outer<long>.Plain().Describe(9));
            Console.WriteLine(await new Outer<int>.Middle<string>.Inner<double>().All(1, "two", 3.5));
            Console.WriteLine(await new Outer<string>.Middle<object>.Inner<int>().All("a", 2, 3));
            Console.WriteLine(await Outer<byte>.Middle<char>.Make(4, 'c'));
            Console.WriteLine(await new Outer<string>.Middle<int>.Inner<string>().Generic(42, async n => { await Pause(); return $"#{n}"; }));
            Console.WriteLine(await new Outer<decimal>.Middle<string>.Inner<int>().Generic("abcd", async s => s.Length));
        }
    }
}
