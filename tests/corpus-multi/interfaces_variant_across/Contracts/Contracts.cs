using System;
using System.Collections.Generic;
using System.Threading.Tasks;

namespace Contracts;

public static class Pause
{
    public static bool Suspend;
    public static async Task Maybe() { if (Suspend) await Task.Yield(); }
}

public interface IStore
{
    Task<string> Load(string key);
    async Task<string> LoadOrDefault(string key, string fallback = "none")
    {
        try { return await Load(key); }
        catch (KeyNotFoundException) { await Pause.Maybe(); return fallback; }
    }
    async Task<int> Size() { await Pause.Maybe(); return (await Load("size")).Length; }
}

public interface ICachingStore : IStore
{
    async Task<string> IStore.LoadOrDefault(string key, string fallback) => "cached:" + await Load(key + "!");
    new async Task<int> Size() { await Pause.Maybe(); return -1; }
}

public interface IHandler<in T>
{
    Task<string> Handle(T item);
    async Task<string> HandleAll(IEnumerable<T> items)
    {
        var s = "";
        foreach (var i in items) s += await Handle(i) + ";";
        return s;
    }
}

public interface IFactory<TSelf> where TSelf : IFactory<TSelf>
{
    static abstract Task<TSelf> Create(int seed);
    static virtual async Task<string> Label() { await Pause.Maybe(); return "factory " + typeof(TSelf).Name; }
    string Show();
}

public class MemoryStore : IStore
{
    private readonly Dictionary<string, string> _data = new() { ["a"] = "A", ["size"] = "12345" };
    public virtual async Task<string> Load(string key)
    {
        await Pause.Maybe();
        return _data.TryGetValue(key, out var v) ? v : throw new KeyNotFoundException(key);
    }
}

public class ObjectHandler : IHandler<object>
{
    public async Task<string> Handle(object item) { await Pause.Maybe(); return "obj " + item; }
}

public static class Use
{
    public static async Task<string> Store(IStore s) => $"{await s.LoadOrDefault("a")} {await s.LoadOrDefault("zz")} {await s.Size()}";
    public static async Task<string> Strings(IHandler<string> h) => await h.Handle("s") + " | " + await h.HandleAll(new[] { "x", "y" });
    public static async Task<string> Make<T>(int seed) where T : IFactory<T> => (await T.Create(seed)).Show() + " / " + await T.Label();
}
