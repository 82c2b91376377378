// A generic interface implemented by a rewritten generic class, a classic one
// ([RuntimeAsyncMethodGeneration(false)]), a struct, and explicitly by a class implementing it at two
// instantiations; a generic interface method implemented explicitly; calls through the interface
// from rewritten code, through constrained type parameters, and from a default interface method.
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

interface IRepo<T>
{
    Task<T> Get(int id);
    Task<TOut> Map<TOut>(int id, Func<T, TOut> f);

    async Task<List<T>> GetMany(params int[] ids)
    {
        var list = new List<T>();
        foreach (var id in ids)
            list.Add(await Get(id));
        return list;
    }
}

sealed class Rewritten<T>(Func<int, T> make) : IRepo<T>
{
    public async Task<T> Get(int id)
    {
        await Program.Pause();
        return make(id);
    }

    public async Task<TOut> Map<TOut>(int id, Func<T, TOut> f) => f(await Get(id));
}

sealed class Classic<T>(Func<int, T> make) : IRepo<T>
{
    [RuntimeAsyncMethodGeneration(false)]
    public async Task<T> Get(int id)
    {
        await Program.Pause();
        return make(id * 10);
    }

    [RuntimeAsyncMethodGeneration(false)]
    public async Task<TOut> Map<TOut>(int id, Func<T, TOut> f)
    {
        var v = await Get(id);
        await Program.Pause();
        return f(v);
    }

    [RuntimeAsyncMethodGeneration(false)]
    public async Task<List<T>> GetMany(params int[] ids) => new List<T> { await Get(ids.Length) };
}

struct Constant : IRepo<int>
{
    public int Value;
    public async Task<int> Get(int id)
    {
        await Program.Pause();
        return Value + id;
    }

    public async Task<TOut> Map<TOut>(int id, Func<int, TOut> f) => f(await Get(id));
}

sealed class Both : IRepo<string>, IRepo<double>
{
    async Task<string> IRepo<string>.Get(int id)
    {
        await Program.Pause();
        return "s" + id;
    }

    async Task<TOut> IRepo<string>.Map<TOut>(int id, Func<string, TOut> f) => f(await ((IRepo<string>)this).Get(id));

    async Task<double> IRepo<double>.Get(int id)
    {
        await Program.Pause();
        return id / 4.0;
    }

    async Task<TOut> IRepo<double>.Map<TOut>(int id, Func<double, TOut> f)
    {
        var d = await ((IRepo<double>)this).Get(id);
        await Program.Pause();
        return f(d);
    }
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<string> Use<T>(IRepo<T> repo) =>
        $"{await repo.Get(1)} {await repo.Map(2, v => $"<{v}>")} [{string.Join(",", await repo.GetMany(3, 4))}]";

    static async Task<string> Constrained<TRepo, T>(TRepo repo) where TRepo : IRepo<T> =>
        $"{await repo.Get(5)} {await repo.Map(6, v => v!.ToString()!.Length)}";

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Use(new Rewritten<string>(i => "r" + i)));
            Console.WriteLine(await Use(new Rewritten<long>(i => i * 100L)));
            Console.WriteLine(await Use(new Classic<string>(i => "c" + i)));
            Console.WriteLine(await Use(new Classic<int>(i => -i)));
            Console.WriteLine(await Use(new Constant { Value = 7 }));
            var both = new Both();
            Console.WriteLine(await Use<string>(both));
            Console.WriteLine(await Use<double>(both));
            Console.WriteLine(await Constrained<Constant, int>(new Constant { Value = 1 }));
            Console.WriteLine(await Constrained<Rewritten<string>, string>(new Rewritten<string>(i => new string('x', i))));
            Console.WriteLine(await Constrained<Classic<double>, double>(new Classic<double>(i => i + 0.5)));
        }
    }
}
