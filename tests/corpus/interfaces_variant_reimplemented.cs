// Interfaces with variant type parameters. A rewritten class implements IHandler<object>; a
// subclass, or the class itself, implements IHandler<string> with a method that is not rewritten
// (not async): a call through IHandler<string> must reach that method, not the IHandler<object>
// one that variance also makes an IHandler<string>. Likewise for a covariant ISource<out T>, whose
// async methods do not use T. Callers in async code, in Task-returning code, and generic ones.
using System;
using System.Threading.Tasks;

interface IHandler<in T>
{
    Task<string> Handle(T item);
}

interface ISource<out T>
{
    T Peek();
    Task<string> Describe(int n);
}

class ObjectHandler : IHandler<object>
{
    public async Task<string> Handle(object item)
    {
        if (Program.Suspend) await Task.Yield();
        return "obj " + item;
    }
}

sealed class StringHandler : ObjectHandler, IHandler<string>
{
    Task<string> IHandler<string>.Handle(string item) => Task.FromResult("str " + item);
}

// Both instantiations on one class: only the object one is rewritten.
sealed class BothHandler : IHandler<object>, IHandler<string>
{
    public async Task<string> Handle(object item)
    {
        if (Program.Suspend) await Task.Yield();
        return "both obj " + item;
    }

    Task<string> IHandler<string>.Handle(string item) => Task.FromResult("both str " + item);
}

// Both rewritten: each instantiation reaches its own.
sealed class AsyncBothHandler : IHandler<object>, IHandler<string>
{
    public async Task<string> Handle(object item)
    {
        if (Program.Suspend) await Task.Yield();
        return "async obj " + item;
    }

    public async Task<string> Handle(string item)
    {
        if (Program.Suspend) await Task.Yield();
        return "async str " + item;
    }
}

class ObjectSource : ISource<object>
{
    public object Peek() => "o";

    public async Task<string> Describe(int n)
    {
        if (Program.Suspend) await Task.Yield();
        return "object source " + n;
    }
}

sealed class StringSource : ObjectSource, ISource<string>
{
    string ISource<string>.Peek() => "s";

    Task<string> ISource<string>.Describe(int n) => Task.FromResult("string source " + n);
}

static class Program
{
    public static bool Suspend;

    static async Task<string> Call(IHandler<string> h) => await h.Handle("s");

    static async Task<string> CallGeneric<T>(IHandler<T> h, T item) => await h.Handle(item);

    static async Task<string> Describe(ISource<object> source) => await source.Describe(1) + " / " + source.Peek();

    static async Task<string> DescribeStrings(ISource<string> source) => await source.Describe(2) + " / " + source.Peek();

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            foreach (IHandler<string> h in new IHandler<string>[] { new ObjectHandler(), new StringHandler(), new BothHandler(), new AsyncBothHandler() })
            {
                Console.WriteLine($"{h.GetType().Name}: {await h.Handle("a")} | {await Call(h)} | {await CallGeneric(h, "g")} | {await CallGeneric<object>((IHandler<object>)h, 5)}");
                Console.WriteLine($"  task surface: {h.Handle("t").Result}");
            }
            foreach (ISource<object> source in new ISource<object>[] { new ObjectSource(), new StringSource() })
            {
                Console.WriteLine($"{source.GetType().Name}: {await Describe(source)}");
                if (source is ISource<string> strings)
                    Console.WriteLine($"  as strings: {await DescribeStrings(strings)}");
            }
        }
    }
}
