// A runtime-async app calling every class of the hierarchy through its base types: a call through
// the base type must reach the most derived implementation, whichever model and assembly it is in.
using System;
using System.Threading.Tasks;
using Hierarchy;

static class Program
{
    static async Task<string> ThroughGreeter(Greeter g, int x) => $"{await g.Compute(x)} {await g.Name()} {await g.Template(x)}";

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Pause.Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            foreach (var g in new Greeter[] { new Greeter(), new ClassicGreeter(), new RewrittenGreeter(), new ClassicTopGreeter() })
                Console.WriteLine($"{g.GetType().Name}: {await ThroughGreeter(g, 2)}");
            ClassicGreeter middle = new ClassicTopGreeter();
            Console.WriteLine($"through ClassicGreeter: {await middle.Compute(3)}");
            RewrittenGreeter upper = new ClassicTopGreeter();
            Console.WriteLine($"through RewrittenGreeter: {await upper.Compute(4)} {await upper.Name()}");

            foreach (var s in new Shape[] { new ClassicSquare(), new RewrittenCircle(), new ClassicBigCircle() })
                Console.WriteLine(await s.Describe());

            foreach (var step in new IStep[] { new ClassicStep(), new RewrittenStep() })
                Console.WriteLine($"{step.GetType().Name}: {await step.Apply(1)} {await step.Twice(2)}");

            foreach (var r in new ClassicRoot[] { new ClassicRoot(), new RewrittenOverRoot() })
                Console.WriteLine($"{r.GetType().Name}: {await r.Describe("x")} / {await r.Twice("y")}");
        }
    }
}
