// Rewritten by Async2: generic interfaces with default async methods, an abstract generic class with
// a generic virtual method, and rewritten implementations that later assemblies derive from and
// re-implement; the interface's own rewritten code calls back into implementations of any model.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

namespace Across;

public static class Pause
{
    public static bool Suspend;

    public static async Task Maybe()
    {
        if (Suspend) await Task.Yield();
    }
}

public interface IRepo<T>
{
    Task<T> Get(int id);

    async Task<List<T>> GetMany(int from, int count)
    {
        var list = new List<T>();
        for (int i = from; i < from + count; i++)
            list.Add(await Get(i));
        return list;
    }

    async Task<string> Describe() => $"{GetType().Name}: {string.Join(",", await GetMany(1, 2))}";
}

public abstract class Source<T>
{
    public abstract Task<T> Next();

    public virtual async Task<TOut> NextAs<TOut>(Func<T, TOut> convert)
    {
        await Pause.Maybe();
        return convert(await Next());
    }
}

public class Numbers : IRepo<int>
{
    public virtual async Task<int> Get(int id)
    {
        await Pause.Maybe();
        return id * 10;
    }
}

public struct Fixed : IRepo<string>
{
    public string Prefix;

    public async Task<string> Get(int id)
    {
        await Pause.Maybe();
        return Prefix + id;
    }
}

public static class Use
{
    public static async Task<string> Repo<T>(IRepo<T> repo) => $"{await repo.Get(7)} | {await repo.Describe()}";

    public static async Task<string> Constrained<TRepo, T>(TRepo repo) where TRepo : IRepo<T> => $"{await repo.Get(8)} {(await repo.GetMany(0, 3)).Count}";

    public static async Task<string> Drain<T>(Source<T> source, int n)
    {
        var parts = new List<string>();
        for (int i = 0; i < n; i++)
            parts.Add(await source.NextAs(v => $"<{v}>"));
        return string.Join("", parts);
    }
}
