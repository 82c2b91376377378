// Generic virtual methods in generic classes: a base Repository<TEntity> with virtual generic
// Query<TKey>, overridden in a derived class closing TEntity, overridden again generically; abstract
// generic methods; interface generic methods implemented explicitly; and calls through the base with
// argument combinations of reference and value types so that each override sees the right T.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading.Tasks;

abstract class Repository<TEntity>
{
    protected readonly List<TEntity> Items = new();

    public virtual async Task<string> Query<TKey>(Func<TEntity, TKey> key)
    {
        await Program.Pause();
        return $"base<{typeof(TEntity).Name},{typeof(TKey).Name}>: " + string.Join(",", Items.Select(i => key(i)));
    }

    public abstract Task<TOut> Project<TOut>(int index, Func<TEntity, Task<TOut>> f);

    public void Add(TEntity e) => Items.Add(e);
}

class NumberRepository : Repository<int>
{
    public override async Task<string> Query<TKey>(Func<int, TKey> key)
    {
        var b = await base.Query(key);
        await Program.Pause();
        return "numbers(" + b + ")";
    }

    public override async Task<TOut> Project<TOut>(int index, Func<int, Task<TOut>> f) => await f(Items[index]);
}

class SortedRepository<TEntity> : Repository<TEntity> where TEntity : IComparable<TEntity>
{
    public override async Task<string> Query<TKey>(Func<TEntity, TKey> key)
    {
        Items.Sort();
        await Program.Pause();
        return "sorted " + await base.Query(key);
    }

    public override async Task<TOut> Project<TOut>(int index, Func<TEntity, Task<TOut>> f)
    {
        await Program.Pause();
        return await f(Items[Items.Count - 1 - index]);
    }
}

sealed class LoudSorted : SortedRepository<string>
{
    public override async Task<string> Query<TKey>(Func<string, TKey> key) => (await base.Query(key)).ToUpperInvariant();
}

interface IVisitor
{
    Task<string> Visit<T>(T node);
}

sealed class Printer : IVisitor
{
    async Task<string> IVisitor.Visit<T>(T node)
    {
        await Program.Pause();
        return $"{typeof(T).Name}({node})";
    }
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<string> Use<TEntity>(Repository<TEntity> repo)
    {
        var a = await repo.Query(e => e!.ToString()!.Length);
        var b = await repo.Query(e => EqualityComparer<TEntity>.Default.Equals(e, default!) ? "default" : "x");
        var c = await repo.Project(0, async e => { await Pause(); return (e, 1); });
        return $"{a} | {b} | {c}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            var numbers = new NumberRepository();
            numbers.Add(0); numbers.Add(12);
            Console.WriteLine(await Use(numbers));
            var words = new SortedRepository<string>();
            words.Add("pear"); words.Add("fig");
            Console.WriteLine(await Use(words));
            var loud = new LoudSorted();
            loud.Add("b"); loud.Add("a");
            Console.WriteLine(await Use<string>(loud));
            var doubles = new SortedRepository<double>();
            doubles.Add(2.5); doubles.Add(0.0);
            Console.WriteLine(await Use(doubles));
            IVisitor v = new Printer();
            Console.WriteLine($"{await v.Visit(1)} {await v.Visit("s")} {await v.Visit<object>(numbers.GetType().Name)}");
        }
    }
}
