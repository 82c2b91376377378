// async instance methods of classes calling each other with `this` live across awaits, instance
// state mutated between awaits, nested classes, a static constructor, an async method of a derived
// class calling a non-virtual async method of its base, interface calls to async implementations,
// and delegates bound to async instance methods.
using System;
using System.Threading.Tasks;

interface IStore
{
    Task<string> Load(string key);
}

class Base
{
    protected string Trail = "";

    protected async Task<int> BaseStep(int v)
    {
        if (Program.Suspend) await Task.Yield();
        Trail += "b" + v;
        return v + 1;
    }
}

sealed class Machine : Base, IStore
{
    static readonly string Prefix;
    static Machine() { Prefix = "M"; }

    private int steps;
    private readonly Inner inner;

    public Machine() => inner = new Inner(this);

    public async Task<string> Load(string key)
    {
        if (Program.Suspend) await Task.Delay(1);
        steps++;
        return Prefix + key.ToUpperInvariant();
    }

    public async Task<string> Run(int n)
    {
        for (int i = 0; i < n; i++)
        {
            int v = await BaseStep(i);
            steps += v;
            Trail += await inner.Describe(i);
        }
        IStore store = this;
        string loaded = await store.Load("k" + n);
        Func<string, Task<string>> loader = Load;
        string viaDelegate = await loader("d");
        return $"{loaded} {viaDelegate} steps={steps} trail={Trail}";
    }

    sealed class Inner
    {
        private readonly Machine owner;
        private int calls;
        public Inner(Machine owner) => this.owner = owner;

        public async Task<string> Describe(int i)
        {
            calls++;
            if (Program.Suspend) await Task.Yield();
            return $"[{i}:{owner.steps}:{calls}]";
        }
    }
}

static class Program
{
    public static bool Suspend;

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            var m = new Machine();
            Console.WriteLine(await m.Run(3));
            Console.WriteLine(await m.Run(1));
        }
    }
}
