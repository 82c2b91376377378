// Values left on the evaluation stack under awaits in generic code: operands of type T, generic
// instances and struct receivers below a direct call to a generic or struct async method
// (10 + await s.ReadAsync(), list.Add(await Get<T>()), calls with T arguments evaluated before
// an await), and a method type parameter constrained by a type parameter of its class (where U : T).
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

struct Meter
{
    public int Value;

    public async Task<int> ReadAsync(int add)
    {
        await Program.Pause();
        return Value + add;
    }
}

class Animal { public virtual string Sound => "..."; public override string ToString() => GetType().Name; }
sealed class Dog : Animal { public override string Sound => "woof"; }

class Shelter<T> where T : Animal
{
    public readonly List<T> Residents = new();

    public async Task<T> AdmitAsync<U>(U animal) where U : T
    {
        await Program.Pause();
        Residents.Add(animal);
        return animal;
    }

    public async Task<string> ChorusAsync()
    {
        var s = "";
        foreach (var r in Residents)
            s += r.Sound + await Program.Echo("/"); // a string below the await
        return s;
    }
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    public static async Task<T> Echo<T>(T value)
    {
        await Pause();
        return value;
    }

    static string Join3<T>(T a, T b, T c) => $"{a}|{b}|{c}";

    static async Task<string> Spill<T>(T first, T second)
    {
        // first, then the result of an await, then second: first stays on the stack across the await.
        var joined = Join3(first, await Echo(second), second);
        var list = new List<T>();
        list.Add(await Echo(first)); // the list is below the await
        var pair = new KeyValuePair<T, T>(await Echo(second), await Echo(first)); // one T below the second await
        return $"{joined} {list.Count}:{list[0]} {pair.Key}->{pair.Value}";
    }

    static async Task<int> StructReceivers()
    {
        var meter = new Meter { Value = 5 };
        var meters = new[] { new Meter { Value = 1 }, new Meter { Value = 2 } };
        int total = 10 + await meter.ReadAsync(1);            // 10 below a call on a struct receiver
        total = total * 100 + await meters[1].ReadAsync(total); // an array element's address as the receiver
        return total + meters[0].Value;
    }

    static async Task<string> GenericReceivers<T>(Shelter<T> shelter, T resident) where T : Animal
    {
        var admitted = "admitted " + (await shelter.AdmitAsync(resident)).ToString(); // string below the call
        return admitted + " " + await shelter.ChorusAsync();
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine($"Spill<int> = {await Spill(1, 2)}");
            Console.WriteLine($"Spill<string> = {await Spill("a", "b")}");
            Console.WriteLine($"Spill<Meter> = {await Spill(new Meter { Value = 3 }, new Meter()).ConfigureAwait(false)}");
            Console.WriteLine($"StructReceivers = {await StructReceivers()}");
            var dogs = new Shelter<Dog>();
            Console.WriteLine($"Shelter<Dog> = {await GenericReceivers(dogs, new Dog())}");
            var animals = new Shelter<Animal>();
            await animals.AdmitAsync(new Dog());
            Console.WriteLine($"Shelter<Animal> = {await GenericReceivers(animals, new Animal())}");
        }
    }
}
