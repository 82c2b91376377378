// A rewritten app calling the rewritten Core library in every way, each on the synchronous and
// the suspending path, and Core calling back into the app's overrides and implementations.
using System;
using System.Threading.Tasks;
using Core;

sealed class Cat : Animal
{
    public override async Task<string> SpeakAsync() { await Pause.Maybe(); return "meow"; }
}

sealed class Puppy : Dog
{
    public override async Task<string> SpeakAsync() => "small " + await base.SpeakAsync();
}

sealed class Circle(double radius) : IShape
{
    public async Task<double> AreaAsync() { await Pause.Maybe(); return Math.Round(Math.PI * radius * radius, 2); }
    public async Task<string> DescribeAsync() => $"circle of area {await AreaAsync()}";
}

sealed class NamedCounter(string name, int start) : Counter(start)
{
    public override async Task<string> NameAsync() => name + ", " + await base.NameAsync();
}

static class Program
{
    static async Task<int> Main(string[] args)
    {
        if (args.Length == 1 && args[0] == "allocations")
            return await Allocations.Measure();
        foreach (var suspend in new[] { false, true })
        {
            Pause.Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine($"static: {await Calc.AddAsync(2, 3)} fib={await Calc.FibAsync(15)}");
            await Calc.LogAsync("hello");
            Console.WriteLine($"generic method: {await Calc.EchoAsync("echo")} {await Calc.EchoAsync(4.5)}");
            try
            {
                await Calc.FailAsync("bad input");
            }
            catch (InvalidOperationException e)
            {
                Console.WriteLine("caught: " + e.Message);
            }

            var counter = new Counter(10);
            Console.WriteLine($"instance: {await counter.NextAsync()} {await counter.NextAsync()} {await counter.NameAsync()}");
            Counter named = new NamedCounter("mine", 1);
            Console.WriteLine($"virtual, overridden in the app: {await named.NameAsync()}");

            var box = new Box<string>("boxed");
            Console.WriteLine($"generic type: {await box.GetAsync()} {await box.PairAsync(7)}");

            IShape square = new Square(3), circle = new Circle(1);
            Console.WriteLine($"interface: {await square.AreaAsync()} {await square.DescribeAsync()} {await circle.DescribeAsync()}");
            Console.WriteLine($"interface from Core: {await Zoo.TotalAreaAsync([square, circle])}");

            Animal dog = new Dog(), cat = new Cat(), puppy = new Puppy();
            Console.WriteLine($"abstract: {await dog.SpeakAsync()} {await cat.SpeakAsync()} {await puppy.SpeakAsync()}");
            Console.WriteLine($"virtual from Core: {await Zoo.ChorusAsync([dog, cat, puppy])}");

            Counter nothing = null!;
            try
            {
                await nothing.NextAsync();
            }
            catch (NullReferenceException)
            {
                Console.WriteLine("null receiver: NullReferenceException");
            }
        }
        return 0;
    }
}

/// <summary>
/// Bytes allocated per synchronously completing call of each kind, after warm-up. Rewritten
/// callers reaching Core's variants directly allocate nothing; through the Task path each call
/// allocates its Task&lt;T&gt; (results are outside Task.FromResult's cache).
/// </summary>
static class Allocations
{
    const int Calls = 10_000;

    public static async Task<int> Measure()
    {
        foreach (var kind in new[] { "static", "instance", "generic", "virtual", "interface", "abstract" })
        {
            for (int i = 0; i < Calls; i++)
                await Loop(kind, 1);
            long before = GC.GetAllocatedBytesForCurrentThread();
            await Loop(kind, Calls);
            long after = GC.GetAllocatedBytesForCurrentThread();
            Console.WriteLine($"{kind}: {(after - before) / Calls} bytes/call");
        }
        return 0;
    }

    // One method per kind, so that the measured loop itself is a rewritten method awaiting Core directly.
    static async Task Loop(string kind, int calls)
    {
        var counter = new Counter(1000);
        var box = new Box<string>("boxed" + calls);
        IShape square = new Square(40);
        Animal dog = new Dog();
        int sum = 0;
        for (int i = 0; i < calls; i++)
        {
            sum += kind switch
            {
                "static" => await Calc.AddAsync(1000, i),
                "instance" => await counter.NextAsync(),
                "generic" => (await box.GetAsync()).Length,
                "virtual" => await counter.PeekAsync(),
                "interface" => (int)await square.AreaAsync(),
                _ => (await dog.SpeakAsync()).Length,
            };
        }
        GC.KeepAlive(sum);
    }
}
