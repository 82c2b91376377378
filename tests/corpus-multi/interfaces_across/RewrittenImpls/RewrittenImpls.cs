// Rewritten by Async2, deriving from the classic assembly and implementing interfaces of the first:
// a rewritten override of a classic override of a rewritten method, a rewritten re-implementation
// of an interface a classic base implements, and a rewritten source over a classic one.
using System;
using System.Threading.Tasks;

namespace Across;

public sealed class DoubledNumbers : ClassicNumbers
{
    public override async Task<int> Get(int id)
    {
        await Pause.Maybe();
        return await base.Get(id) * 2;
    }
}

public sealed class LoudWords : Words, IRepo<string>
{
    async Task<string> IRepo<string>.Get(int id)
    {
        await Pause.Maybe();
        return (await Get(id)).ToUpperInvariant();
    }
}

public sealed class SkippingCounter : Counter
{
    public override async Task<int> Next()
    {
        await base.Next();
        return await base.Next();
    }

    public override async Task<TOut> NextAs<TOut>(Func<int, TOut> convert) => await base.NextAs(convert);
}
