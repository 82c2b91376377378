// A runtime-async app using every implementation through the rewritten interfaces and abstract
// class, directly and through the rewritten helpers of the first assembly.
using System;
using System.Threading.Tasks;
using Across;

static class Program
{
    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Pause.Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Use.Repo<int>(new Numbers()));
            Console.WriteLine(await Use.Repo<int>(new ClassicNumbers()));
            Console.WriteLine(await Use.Repo<int>(new DoubledNumbers()));
            Console.WriteLine(await Use.Repo<string>(new Words()));
            Console.WriteLine(await Use.Repo<string>(new ExplicitWords()));
            Console.WriteLine(await Use.Repo<string>(new LoudWords()));
            Console.WriteLine(await Use.Repo<string>(new Fixed { Prefix = "f" }));
            Console.WriteLine(await Use.Constrained<Fixed, string>(new Fixed { Prefix = "g" }));
            Console.WriteLine(await Use.Constrained<DoubledNumbers, int>(new DoubledNumbers()));
            Console.WriteLine(await Use.Constrained<LoudWords, string>(new LoudWords()));
            IRepo<int> repo = new DoubledNumbers();
            Console.WriteLine($"{await repo.Get(1)} {string.Join(",", await repo.GetMany(2, 2))}");
            Console.WriteLine(await Use.Drain(new Counter(), 3));
            Console.WriteLine(await Use.Drain(new SkippingCounter(), 3));
            Source<int> source = new SkippingCounter();
            Console.WriteLine($"{await source.Next()} {await source.NextAs(v => v * 100)}");
        }
    }
}
