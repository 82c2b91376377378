using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

namespace Contracts;

public interface IHandler<T>
{
    Task<T> HandleAsync(T item);
}

public abstract class Stage<T>
{
    public static bool Suspend;
    public abstract Task<T> RunAsync(T input);
    public virtual async Task<T> RunTwiceAsync(T input)
    {
        var a = await RunAsync(input);
        if (Suspend) await Task.Yield();
        return await RunAsync(a);
    }
}

public static class Pipeline
{
    public static bool Suspend;

    public static async Task<T> RunAsync<T>(IHandler<T> handler, T item, int times)
    {
        for (int i = 0; i < times; i++)
        {
            if (Suspend) await Task.Yield();
            item = await handler.HandleAsync(item);
        }
        return item;
    }

    public static async Task<List<T>> CollectAsync<T>(IAsyncEnumerable<T> source, int max, CancellationToken token)
    {
        var list = new List<T>();
        try
        {
            await foreach (var x in source.WithCancellation(token).ConfigureAwait(false))
            {
                list.Add(x);
                if (list.Count == max) break;
            }
        }
        catch (OperationCanceledException)
        {
            list.Add(default!);
        }
        return list;
    }

    public static async ValueTask<(T, string)> TagAsync<T>(Func<ValueTask<T>> f, string tag)
    {
        var v = await f();
        if (Suspend) await Task.Yield();
        return (v, tag);
    }
}
