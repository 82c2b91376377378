// ConfigureAwait on tasks whose types name the type parameters of generic classes, methods and
// closures, at every position: the awaited task's type is read where the caller's type
// parameters are in scope (a rewrite that read it against Task's own parameters failed on the
// second one, and misread nested ones). Task and ValueTask values, own async methods (called
// directly) and a library's; a generic lambda's closure class; a method's own type parameters;
// an argument computed at run time and ConfigureAwaitOptions, which go through the Task.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

sealed class Pair<A, B>
{
    private readonly A first;
    private readonly B second;
    public Pair(A first, B second) { this.first = first; this.second = second; }

    public async Task<B> AwaitSecond(Task<B> pending) => await pending.ConfigureAwait(false);

    private async ValueTask<B> MakeSecond() { await Task.Yield(); return second; }
    public async ValueTask<B> SecondLater() => await MakeSecond().ConfigureAwait(false);

    private async Task<List<B>> Listed() { await Task.Yield(); return [second, second]; }
    public async Task<int> CountListed() => (await Listed().ConfigureAwait(false)).Count;

    public async Task<B> SecondWhere(bool stay) => await MakeSecond().ConfigureAwait(stay);
    public async Task<int> CountListedYielding() => (await Listed().ConfigureAwait(ConfigureAwaitOptions.ForceYielding)).Count;

    private async Task<KeyValuePair<B, A>> Swapped() { await Task.Delay(1); return new(second, first); }
    public async Task<string> DescribeSwapped() { var pair = await Swapped().ConfigureAwait(true); return $"{pair.Key}->{pair.Value}"; }
}

sealed class One<T>
{
    private async Task<List<T>> Wrap(T value) { await Task.Yield(); return [value]; }
    public async Task<string> Unwrap(T value) => string.Join(",", await Wrap(value).ConfigureAwait(false));
}

static class Program
{
    static async Task<TResult> Apply<TSource, TResult>(Func<TSource, Task<TResult>> transform, TSource source)
    {
        Func<Task<TResult>> deferred = async () => await transform(source).ConfigureAwait(false);
        return await deferred().ConfigureAwait(false);
    }

    static async Task<(U, V)> Both<U, V>(U u, V v)
    {
        var second = await Later(v).ConfigureAwait(false);
        var first = await Later(u).ConfigureAwait(false);
        return (first, second);
    }

    static async ValueTask<W> Later<W>(W value) { await Task.Yield(); return value; }

    static async Task Main()
    {
        var pair = new Pair<int, string>(7, "seven");
        Console.WriteLine(await pair.AwaitSecond(Task.FromResult("now")));
        Console.WriteLine(await pair.AwaitSecond(Task.Run(async () => { await Task.Delay(1); return "later"; })));
        Console.WriteLine(await pair.SecondLater());
        Console.WriteLine(await pair.CountListed());
        Console.WriteLine(await pair.DescribeSwapped());
        Console.WriteLine(await pair.SecondWhere(stay: false));
        Console.WriteLine(await pair.CountListedYielding());
        Console.WriteLine(await new One<double>().Unwrap(1.5));
        Console.WriteLine(await Apply<int, string>(async i => { await Task.Yield(); return "v" + i; }, 3));
        Console.WriteLine(await Both("u", 42));
    }
}
