using System.Collections.Generic;
using System.Threading.Tasks;
using Contracts;

namespace Impls;

public sealed class ClassicStore : IStore
{
    public async Task<string> Load(string key) { await Pause.Maybe(); return key == "zz" ? throw new KeyNotFoundException(key) : "classic " + key; }
    public async Task<int> Size() { await Pause.Maybe(); return 99; }
}

public class CachingStore : MemoryStore, ICachingStore
{
    public override async Task<string> Load(string key) { await Pause.Maybe(); return "caching " + key; }
}

public sealed class StringHandler : ObjectHandler, IHandler<string>
{
    async Task<string> IHandler<string>.Handle(string item) { await Pause.Maybe(); return "str " + item; }
}

public readonly struct Widget(int n) : IFactory<Widget>
{
    public static async Task<Widget> Create(int seed) { await Pause.Maybe(); return new Widget(seed * 2); }
    public string Show() => "widget " + n;
}
