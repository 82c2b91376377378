// Virtual calls between rewritten methods go through virtual entries: the most derived body must
// run whether it is rewritten, non-async, or reached through base.M(), at every level of a hierarchy.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

class Base
{
    public virtual async Task<int> Value(int x)
    {
        if (x % 2 == 0) await Task.Yield();
        return x + 1;
    }

    public virtual async Task Log(List<string> log, string what)
    {
        await Task.Yield();
        log.Add("Base.Log " + what);
    }

    public virtual async ValueTask<string> Name() { await Task.Yield(); return "Base"; }

    public virtual async Task<T> Echo<T>(T value) { await Task.Yield(); return value; }
}

class Derived : Base
{
    public override async Task<int> Value(int x) => 10 * await base.Value(x);
    public override async ValueTask<string> Name() => "Derived>" + await base.Name();
}

// Non-async overrides: the runtime-async build leaves them alone, so the rewritten entries of
// Base and Derived must notice them and call them instead of their own bodies.
class Plain : Derived
{
    public override Task<int> Value(int x) => x < 0 ? Task.FromException<int>(new InvalidOperationException("negative")) : Task.FromResult(-x);
    public override Task Log(List<string> log, string what) { log.Add("Plain.Log " + what); return base.Log(log, what + "!"); }
    public override ValueTask<string> Name() => new ValueTask<string>("Plain");
    public override Task<T> Echo<T>(T value) => Task.FromResult(value);
}

class Deferred : Plain
{
    public override async Task<int> Value(int x) { await Task.Delay(1); return 1000 + await base.Value(x); }
}

sealed class Leaf : Derived
{
    public override async Task<int> Value(int x) { await Task.Yield(); return 7 * x; }
    public override async Task<T> Echo<T>(T value) { await Task.Yield(); return value is string s ? (T)(object)(s + s) : value; }
}

class NoOverrides : Leaf2 { }
class Leaf2 : Base
{
    public sealed override async Task Log(List<string> log, string what) { await Task.Yield(); log.Add("Leaf2.Log " + what); }
}

class Hider : Derived
{
    public new virtual async Task<int> Value(int x) { await Task.Yield(); return -1; }
}

class Generic<T>
{
    public virtual async Task<string> Show(T value) { await Task.Yield(); return "Generic " + value; }
}

class GenericDerived : Generic<int>
{
    public override async Task<string> Show(int value) => "GenericDerived(" + await base.Show(value + 1) + ")";
}

class GenericPlain<U> : Generic<U>
{
    public override Task<string> Show(U value) => Task.FromResult("GenericPlain " + value);
}

abstract class Animal
{
    public abstract Task<string> Speak(int n);
    public virtual Task<int> Legs() => Task.FromResult(4);
    public async Task<string> Describe() => $"{GetType().Name} says {await Speak(2)} on {await Legs()} legs";
}

class Dog : Animal
{
    public override async Task<string> Speak(int n) { await Task.Yield(); return string.Join("-", System.Linq.Enumerable.Repeat("woof", n)); }
}

class Puppy : Dog
{
    public override async Task<string> Speak(int n) => "yip " + await base.Speak(n - 1);
    public override async Task<int> Legs() { await Task.Delay(1); return 3 + await base.Legs() - 3; }
}

class Fish : Animal
{
    public override Task<string> Speak(int n) => Task.FromResult("...");
    public override Task<int> Legs() => Task.FromResult(0);
}

class Bird : Animal
{
    public override async Task<string> Speak(int n) { if (n > 1) await Task.Yield(); return "tweet"; }
    public override Task<int> Legs() => Task.FromException<int>(new NotSupportedException("birds do not count"));
}

static class Program
{
    static async Task<string> Describe(Base b, int x)
    {
        var log = new List<string>();
        int value;
        try { value = await b.Value(x); }
        catch (InvalidOperationException e) { return $"{b.GetType().Name}: threw {e.Message}"; }
        await b.Log(log, x.ToString());
        string name = await b.Name();
        string echoed = await b.Echo("e" + x);
        int echoedInt = await b.Echo(x * 3);
        return $"{b.GetType().Name}: value={value} name={name} echo={echoed},{echoedInt} log=[{string.Join("; ", log)}]";
    }

    static async Task<string> Show<T>(Generic<T> g, T value) => await g.Show(value);

    static async Task Main()
    {
        Base[] objects = [new Base(), new Derived(), new Plain(), new Deferred(), new Leaf(), new NoOverrides(), new Leaf2(), new Hider()];
        foreach (var b in objects)
            foreach (int x in new[] { 1, 2, -3 })
                Console.WriteLine(await Describe(b, x));

        var hider = new Hider();
        Console.WriteLine($"Hider as Hider: {await hider.Value(4)}, as Base: {await ((Base)hider).Value(4)}");
        Derived derived = new Plain();
        Console.WriteLine($"Plain as Derived: {await derived.Value(5)}");
        Leaf leaf = new Leaf();
        Console.WriteLine($"Leaf as Leaf: {await leaf.Value(5)}");

        foreach (Animal animal in new Animal[] { new Dog(), new Puppy(), new Fish(), new Bird() })
        {
            try { Console.WriteLine(await animal.Describe()); }
            catch (NotSupportedException e) { Console.WriteLine($"{animal.GetType().Name}: {e.Message}"); }
            Console.WriteLine($"{animal.GetType().Name} through the base: {await animal.Speak(3)}");
        }

        Console.WriteLine(await Show(new Generic<string>(), "s"));
        Console.WriteLine(await Show(new GenericDerived(), 41));
        Console.WriteLine(await Show<int>(new GenericPlain<int>(), 5));
        Console.WriteLine(await Show(new GenericPlain<string>(), "p"));
    }
}
