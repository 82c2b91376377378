// Structs meeting interfaces with default async methods: a default method called on a boxed struct
// (it calls the struct's own async implementation through the box), a constrained generic call to
// a default method on a struct type argument, a struct overriding the default, and struct
// implementations of IAsyncDisposable used with await using, on copies and on the original.
using System;
using System.Threading.Tasks;

interface IProbe
{
    Task<int> Measure();

    async Task<string> Report()
    {
        int a = await Measure();
        await Program.Pause();
        int b = await Measure();
        return $"report {a},{b}";
    }
}

struct Sensor : IProbe
{
    public int Calls;
    public async Task<int> Measure()
    {
        Calls++;
        await Program.Pause();
        return Calls * 10;
    }
}

struct CustomSensor : IProbe
{
    public async Task<int> Measure() => 5;
    public async Task<string> Report()
    {
        await Program.Pause();
        return "custom report " + await Measure();
    }
}

struct Resource : IAsyncDisposable
{
    public string Name;
    public async ValueTask DisposeAsync()
    {
        await Program.Pause();
        Console.WriteLine($"  disposed {Name}");
    }

    public async Task<string> Use()
    {
        await Program.Pause();
        return "used " + Name;
    }
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<string> ReportOf<T>(T probe) where T : IProbe => await probe.Report();

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            IProbe boxed = new Sensor();
            Console.WriteLine($"{await boxed.Report()} then {await boxed.Report()}");
            Console.WriteLine(await ReportOf(new Sensor()));
            Console.WriteLine(await ReportOf(new CustomSensor()));
            Console.WriteLine(await ((IProbe)new CustomSensor()).Report());
            await using (var r = new Resource { Name = "r1" })
                Console.WriteLine(await r.Use());
            var r2 = new Resource { Name = "r2" };
            await using (r2)
            {
                r2.Name = "changed"; // the using disposes the copy it took
                Console.WriteLine(await r2.Use());
            }
        }
    }
}
