// Compiled classic in every run and never rewritten: classic implementations of the rewritten
// interfaces (implicit, explicit, replacing a default method), a classic override of a rewritten
// virtual implementation, and a classic source overriding the generic virtual method.
using System;
using System.Threading.Tasks;

namespace Across;

public class Words : IRepo<string>
{
    public async Task<string> Get(int id)
    {
        await Pause.Maybe();
        return "w" + id;
    }
}

public sealed class ExplicitWords : IRepo<string>
{
    async Task<string> IRepo<string>.Get(int id)
    {
        await Pause.Maybe();
        return "x" + id;
    }

    public async Task<string> Describe() => "explicit words, own Describe";
}

public class ClassicNumbers : Numbers
{
    public override async Task<int> Get(int id) => -await base.Get(id);
}

public class Counter : Source<int>
{
    private int _n;

    public override async Task<int> Next()
    {
        await Pause.Maybe();
        return ++_n;
    }

    public override async Task<TOut> NextAs<TOut>(Func<int, TOut> convert)
    {
        var v = await base.NextAs(convert);
        await Pause.Maybe();
        return v;
    }
}
