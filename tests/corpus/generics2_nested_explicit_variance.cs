// Constraints that span levels: nested generic types (Outer<T>.Inner<U>) whose async generic
// methods constrain their own parameters by the enclosing ones, generic async local functions and
// lambdas capturing T values inside generic async methods, explicit implementations of generic
// interface async methods (constraints inherited from the interface), overrides with
// `where T : default` and `where T : class`, and classes behind variant interfaces
// (IProducer<out T>, IConsumer<in T>) whose async methods are reached through a variance conversion.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading.Tasks;

interface IAnimal { string Name { get; } }
class Animal : IAnimal
{
    public Animal(string name) => Name = name;
    public string Name { get; }
    public override string ToString() => $"{GetType().Name}:{Name}";
}
sealed class Cat : Animal { public Cat(string n) : base(n) { } }
class Dog : Animal { public Dog(string n) : base(n) { } }

class Outer<T> where T : IAnimal
{
    public readonly T Owner;
    public Outer(T owner) => Owner = owner;

    public class Inner<U> where U : class, T
    {
        public readonly List<U> Items = new();

        public async Task<string> AddAsync<V>(U item, V tag) where V : struct, IComparable<V>
        {
            await Program.Pause();
            Items.Add(item);
            T asT = item;
            await Program.Pause();
            return $"{typeof(T).Name}>{typeof(U).Name}>{typeof(V).Name}: {asT.Name} tag={tag} cmp={tag.CompareTo(default)}";
        }

        public async Task<T> Pick<W>(Func<U, W> key, W wanted) where W : IEquatable<W>
        {
            foreach (var item in Items)
            {
                await Program.Pause();
                if (key(item).Equals(wanted))
                    return item;
            }
            return default!;
        }

        public sealed class Deepest<X> where X : U, new()
        {
            public async ValueTask<string> Make(Outer<T> outer)
            {
                await Program.Pause();
                X made = new X();
                U asU = made;
                T asT = asU;
                await Program.Pause();
                return $"{outer.Owner.Name} made {typeof(X).Name} {asT.Name}";
            }
        }
    }
}

class Puppy : Dog { public Puppy() : base("pup") { } }

interface IRepo
{
    Task<string> Save<T>(T item) where T : class, IAnimal;
    Task<int> Count<T>(IEnumerable<T> items) where T : struct;
    ValueTask<string> Convert<TIn, TOut>(TIn input, Func<TIn, TOut> map) where TOut : notnull;
}

sealed class Repo : IRepo
{
    public readonly List<string> Log = new();

    async Task<string> IRepo.Save<T>(T item)
    {
        await Program.Pause();
        Log.Add(item.Name);
        return $"saved {typeof(T).Name} {item.Name}";
    }

    async Task<int> IRepo.Count<T>(IEnumerable<T> items)
    {
        int n = 0;
        foreach (var item in items)
        {
            await Program.Pause();
            if (!EqualityComparer<T>.Default.Equals(item, default))
                n++;
        }
        return n;
    }

    async ValueTask<string> IRepo.Convert<TIn, TOut>(TIn input, Func<TIn, TOut> map)
    {
        await Program.Pause();
        TOut output = map(input);
        await Program.Pause();
        return $"{input}->{output} ({typeof(TOut).Name})";
    }
}

class RepoBase : IRepo
{
    public virtual async Task<string> Save<T>(T item) where T : class, IAnimal
    {
        await Program.Pause();
        return $"base {item.Name}";
    }
    public async Task<int> Count<T>(IEnumerable<T> items) where T : struct
    {
        await Program.Pause();
        return items.Count();
    }
    public virtual async ValueTask<string> Convert<TIn, TOut>(TIn input, Func<TIn, TOut> map) where TOut : notnull
    {
        await Program.Pause();
        return $"base {map(input)}";
    }
}

sealed class RepoDerived : RepoBase
{
    public override async Task<string> Save<T>(T item) where T : class
    {
        var b = await base.Save(item);
        await Program.Pause();
        return $"derived({b})";
    }
    public override async ValueTask<string> Convert<TIn, TOut>(TIn input, Func<TIn, TOut> map)
    {
        await Program.Pause();
        return "derived " + await base.Convert(input, map);
    }
}

abstract class Maybe
{
    public abstract Task<string> Show<T>(T? value);
}

sealed class MaybeImpl : Maybe
{
    public override async Task<string> Show<T>(T? value) where T : default
    {
        await Program.Pause();
        return value is null ? $"none<{typeof(T).Name}>" : $"some {value}";
    }
}

interface IProducer<out T> { Task<string> Describe(Action<T> visit); T Last { get; } }
interface IConsumer<in T> { Task<int> Feed(T item, int weight); }

sealed class Pen<T> : IProducer<T>, IConsumer<T> where T : Animal
{
    private readonly List<T> _items = new();
    public T Last => _items[^1];

    private int _weight;

    public async Task<string> Describe(Action<T> visit)
    {
        await Program.Pause();
        foreach (var item in _items)
            visit(item);
        await Program.Pause();
        return $"pen<{typeof(T).Name}> last={Last} count={_items.Count} weight={_weight}";
    }

    public async Task<int> Feed(T item, int weight)
    {
        await Program.Pause();
        _items.Add(item);
        _weight += weight;
        return _weight;
    }
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<string> WithLocals<T, TKey>(IEnumerable<T> items, Func<T, TKey> key)
        where T : class where TKey : IComparable<TKey>
    {
        var seen = new List<TKey>();
        T? first = items.FirstOrDefault();

        async Task<(TKey, TOther)> Pair<TOther>(T item, TOther extra) where TOther : struct
        {
            await Pause();
            seen.Add(key(item));
            return (key(item), extra);
        }

        static async Task<string> Format<TA>(TA a) where TA : notnull
        {
            await Pause();
            return $"<{a}>";
        }

        var parts = new List<string>();
        foreach (var item in items)
        {
            var (k, n) = await Pair(item, parts.Count);
            parts.Add(await Format(k) + n);
        }
        Func<T, Task<string>> lambda = async t =>
        {
            await Pause();
            return $"{key(t)}/{first}";
        };
        parts.Add(await lambda(first!));
        seen.Sort();
        return string.Join(",", parts) + " sorted=" + string.Join("", seen);
    }

    static async Task<string> ViaProducer(IProducer<Animal> producer)
    {
        await Pause();
        var names = new List<string>();
        var text = await producer.Describe(a => names.Add(a.Name));
        return text + " visited=" + string.Join("", names);
    }

    static async Task<int> ViaConsumer(IConsumer<Cat> consumer, Cat cat)
    {
        await Pause();
        return await consumer.Feed(cat, cat.Name.Length);
    }

    static async Task<string> GenericRepo<TRepo>(TRepo repo, Animal animal) where TRepo : IRepo
    {
        var a = await repo.Save(animal);
        var b = await repo.Count(new int?[] { 1, null, 3 }.Select(x => x ?? 0));
        var c = await repo.Convert(animal, x => x.Name.ToUpperInvariant());
        return $"{a} | {b} | {c}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            var outer = new Outer<Animal>(new Animal("boss"));
            var inner = new Outer<Animal>.Inner<Dog>();
            Console.WriteLine(await inner.AddAsync(new Dog("rex"), 5));
            Console.WriteLine(await inner.AddAsync(new Puppy(), -2.5));
            Console.WriteLine(await inner.Pick(d => d.Name, "pup"));
            Console.WriteLine((await inner.Pick(d => d.Name.Length, 9)) is null);
            Console.WriteLine(await new Outer<Animal>.Inner<Dog>.Deepest<Puppy>().Make(outer));
            var iface = new Outer<IAnimal>.Inner<Cat>();
            Console.WriteLine(await iface.AddAsync(new Cat("tom"), 'c'));
            Console.WriteLine(await iface.Pick(c => c.Name[0], 't'));

            Console.WriteLine(await WithLocals(new[] { "b", "a", "c" }, s => s));
            Console.WriteLine(await WithLocals(new[] { new Cat("z"), new Cat("y") }, c => c.Name.Length));

            var repo = new Repo();
            IRepo ir = repo;
            Console.WriteLine(await ir.Save(new Cat("kit")));
            Console.WriteLine(await ir.Count(new[] { 0, 1, 2, 0 }));
            Console.WriteLine(await ir.Convert(3, i => i * 1.5));
            Console.WriteLine(await GenericRepo(repo, new Dog("fido")));
            Console.WriteLine(await GenericRepo<IRepo>(new RepoBase(), new Dog("b")));
            Console.WriteLine(await GenericRepo<RepoBase>(new RepoDerived(), new Cat("d")));
            IRepo derived = new RepoDerived();
            Console.WriteLine(await derived.Save(new Dog("e")) + " " + await derived.Convert('x', c => (int)c));
            Console.WriteLine(string.Join(",", repo.Log));

            Maybe m = new MaybeImpl();
            Console.WriteLine($"{await m.Show<string>(null)} {await m.Show<int?>(null)} {await m.Show(5)} {await m.Show<int?>(7)}");

            var pen = new Pen<Cat>();
            Console.WriteLine(await ViaConsumer(pen, new Cat("felix")));
            Console.WriteLine(await ViaConsumer((IConsumer<Animal>)new Pen<Animal>(), new Cat("mo")));
            Console.WriteLine(await ViaProducer(pen));
            IConsumer<Cat> contra = (IConsumer<Animal>)new Pen<Animal>();
            Console.WriteLine(await contra.Feed(new Cat("abc"), 100));
        }
    }
}
