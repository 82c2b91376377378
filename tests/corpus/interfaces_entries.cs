// Interface calls between rewritten methods go through interface entries: every implementation
// shape must still be the one that runs, including non-async ones, re-implementations, structs,
// generic interfaces and default interface methods.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

interface IShape
{
    Task<int> Area(int x);
    ValueTask<string> Name();
    Task Log(List<string> log);
}

class Square : IShape
{
    public virtual async Task<int> Area(int x) { if (x % 2 == 0) await Task.Yield(); return x * x; }
    public async ValueTask<string> Name() { await Task.Yield(); return "Square"; }
    public async Task Log(List<string> log) { await Task.Yield(); log.Add("Square.Log"); }
}

class Explicit : IShape
{
    async Task<int> IShape.Area(int x) { await Task.Yield(); return -x; }
    async ValueTask<string> IShape.Name() => "Explicit";
    async Task IShape.Log(List<string> log) { log.Add("Explicit.Log"); await Task.Delay(1); }
}

sealed class Sealed : Square
{
    public override async Task<int> Area(int x) => 1 + await base.Area(x);
}

class SubSquare : Square { }

class NonAsyncOverride : Square
{
    public override Task<int> Area(int x) => Task.FromResult(100 + x);
}

class Reimplements : Square, IShape
{
    public new async Task<int> Area(int x) { await Task.Yield(); return 7; }
}

struct Counter : IShape
{
    private int _calls;
    public async Task<int> Area(int x) { _calls++; await Task.Yield(); return x + _calls; }
    public ValueTask<string> Name() => new ValueTask<string>("Counter");
    public async Task Log(List<string> log) { await Task.Yield(); log.Add("Counter.Log " + _calls); }
}

class Plain : IShape
{
    public Task<int> Area(int x) => x < 0 ? Task.FromException<int>(new ArgumentException("negative side")) : Task.FromResult(x + 0.5 > 3 ? 3 : x);
    public ValueTask<string> Name() => new ValueTask<string>("Plain");
    public Task Log(List<string> log) { log.Add("Plain.Log"); return Task.CompletedTask; }
}

interface IRepo<T>
{
    Task<T> Get(int id);
    Task<U> Map<U>(int id, Func<T, U> map);
}

class Repo<T> : IRepo<T>
{
    private readonly Func<int, T> _make;
    public Repo(Func<int, T> make) => _make = make;
    public async Task<T> Get(int id) { await Task.Yield(); return _make(id); }
    public async Task<U> Map<U>(int id, Func<T, U> map) => map(await Get(id));
}

sealed class IntRepo : IRepo<int>
{
    public async Task<int> Get(int id) { if (id > 1) await Task.Yield(); return id * 1000; }
    async Task<U> IRepo<int>.Map<U>(int id, Func<int, U> map) => map(await Get(id) + 1);
}

interface IGreeter
{
    async Task<string> Greet(string name) { await Task.Yield(); return "Hello " + name; }
}

class DefaultGreeter : IGreeter { }

class LoudGreeter : IGreeter
{
    async Task<string> IGreeter.Greet(string name) { await Task.Yield(); return "HELLO " + name.ToUpperInvariant(); }
}

interface IBase { Task<int> F(int x); }
interface IDerived : IBase { }
class ViaDerived : IDerived { public async Task<int> F(int x) { await Task.Yield(); return x - 1; } }

static class Program
{
    static async Task<string> Describe(IShape shape, int x)
    {
        var log = new List<string>();
        string area;
        try { area = (await shape.Area(x)).ToString(); }
        catch (ArgumentException e) { area = "threw " + e.Message; }
        await shape.Log(log);
        return $"{shape.GetType().Name}: area({x})={area} name={await shape.Name()} log=[{string.Join(", ", log)}]";
    }

    static async Task<int> Constrained<T>(T shape, int x) where T : IShape => await shape.Area(x) + await shape.Area(x);

    static async Task Main()
    {
        IShape[] shapes = [new Square(), new Explicit(), new Sealed(), new SubSquare(), new NonAsyncOverride(), new Reimplements(), new Counter(), new Plain()];
        foreach (var shape in shapes)
            foreach (int x in new[] { 1, 2, -3 })
                Console.WriteLine(await Describe(shape, x));

        var counter = new Counter();
        Console.WriteLine($"constrained struct: {await Constrained(counter, 5)}, copy unchanged: {await counter.Area(0)}");
        Console.WriteLine($"constrained class: {await Constrained(new Reimplements(), 5)}");

        IRepo<string> strings = new Repo<string>(id => "item" + id);
        IRepo<int> ints = new IntRepo();
        IRepo<int> genericInts = new Repo<int>(id => -id);
        Console.WriteLine($"{await strings.Get(3)} {await strings.Map(4, s => s.Length)} {await ints.Get(2)} {await ints.Map(2, i => i.ToString("N0"))} {await genericInts.Map(6, i => i * 2)}");

        IGreeter[] greeters = [new DefaultGreeter(), new LoudGreeter()];
        foreach (var greeter in greeters)
            Console.WriteLine(await greeter.Greet("async2"));

        IBase viaDerived = new ViaDerived();
        Console.WriteLine($"via derived interface: {await viaDerived.F(10)}");
    }
}
