// Compiled classic in every run and never rewritten: a classic subclass of the rewritten generic
// cache closed over its own types, overriding the rewritten virtual method.
using System.Threading.Tasks;

namespace Generic;

public readonly record struct Sku(string Code, int Size);

public sealed class SkuCache : Cache<Sku, decimal>
{
    public override async Task<string> Dump() => "skus: " + await base.Dump();
}
