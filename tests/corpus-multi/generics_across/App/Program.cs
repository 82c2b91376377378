// A runtime-async app instantiating the rewritten library's generic code over its own classes and
// structs and the classic client's struct, passing its own async lambdas and async iterator.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;
using Generic;

readonly struct Celsius(double degrees) : IComparable<Celsius>
{
    public double Degrees => degrees;
    public int CompareTo(Celsius other) => degrees.CompareTo(other.Degrees);
    public override string ToString() => $"{degrees}C";
}

sealed class User(string name)
{
    public string Name => name;
    public override string ToString() => "user " + name;
}

static class Program
{
    static async IAsyncEnumerable<Celsius> Readings()
    {
        foreach (var d in new[] { 21.5, 19.0, 25.25 })
        {
            await Pause.Maybe();
            yield return new Celsius(d);
        }
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Pause.Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            var users = new Cache<int, User>();
            Func<int, Task<User>> loadUser = async id => { await Pause.Maybe(); return new User("u" + id); };
            Console.WriteLine($"{await users.GetOrLoad(1, loadUser)} {await users.GetOrLoad(1, loadUser)} {await users.GetOrLoad(2, loadUser)} loads={users.Loads}");
            Console.WriteLine(await users.Dump());

            var temps = new Cache<Celsius, string>();
            Console.WriteLine(await temps.GetOrLoad(new Celsius(3), async c => c.Degrees > 0 ? "warm" : "cold"));

            Cache<Sku, decimal> skus = new SkuCache();
            await skus.GetOrLoad(new Sku("a", 1), async s => { await Pause.Maybe(); return s.Size * 1.5m; });
            await skus.GetOrLoad(new Sku("b", 2), async s => s.Size * 2.5m);
            Console.WriteLine(await skus.Dump());

            var acc = new Accumulator<Celsius>();
            Console.WriteLine($"{await acc.AddAll(new[] { new Celsius(1), new Celsius(2) })} items={acc.Items?.Count ?? -1}");
            var users2 = new Accumulator<User>();
            Console.WriteLine(await users2.AddAll(new[] { new User("x") }));

            Console.WriteLine(await Algorithms.Fold(new[] { new User("a"), new User("bb") }, 0, async (n, u) => { await Pause.Maybe(); return n + u.Name.Length; }));
            Console.WriteLine(await Algorithms.Fold(new[] { new Sku("s", 3) }, "", async (s, sku) => s + sku));
            Console.WriteLine(await Algorithms.Range(Readings()));
        }
    }
}
