// Contexts through virtual, abstract and interface calls between rewritten methods (which reach the
// overrides without a Task): an override that changes an AsyncLocal before and after suspending does
// not leak it to its caller; an override that leaves a single-threaded loop with ConfigureAwait(false)
// returns its caller to the loop; a base implementation reached through base.M(); a generic
// interface method; each check prints true/false.
using System;
using System.Threading;
using System.Threading.Tasks;

interface IStep<T>
{
    Task<T> Step(T value);
}

abstract class Shape
{
    public static bool Suspend;
    public static readonly AsyncLocal<string?> Tag = new AsyncLocal<string?>();

    public static Task Pause() => Suspend ? Task.Delay(1) : Task.CompletedTask;

    public abstract Task<string> Describe();

    public virtual async Task<int> Area()
    {
        Tag.Value = "base area";
        await Pause();
        return 0;
    }
}

sealed class Square : Shape, IStep<int>
{
    public override async Task<string> Describe()
    {
        Tag.Value = "square before";
        await Pause().ConfigureAwait(false);
        Tag.Value = "square after";
        return "square";
    }

    public override async Task<int> Area()
    {
        int fromBase = await base.Area();
        Tag.Value = "square area";
        await Pause().ConfigureAwait(false);
        return fromBase + 16;
    }

    public async Task<int> Step(int value)
    {
        await Pause().ConfigureAwait(false);
        Tag.Value = "step";
        return value + 1;
    }
}

static class Program
{
    static SingleThreadLoop Loop = null!;

    static string Check(string what) =>
        $"  {what}: on loop {Loop.IsCurrent.ToString().ToLowerInvariant()}, tag {Shape.Tag.Value ?? "null"}";

    static async Task Scenarios()
    {
        Shape.Tag.Value = "caller";
        Shape shape = new Square();
        Console.WriteLine(Check("describe " + await shape.Describe()));
        Console.WriteLine(Check("area " + await shape.Area()));
        IStep<int> step = (Square)shape;
        Console.WriteLine(Check("step " + await step.Step(41)));
        int total = 0;
        for (int i = 0; i < 3; i++)
            total += await step.Step(i);
        Console.WriteLine(Check("steps " + total));
    }

    static void Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Shape.Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Loop = new SingleThreadLoop();
            Loop.RunUntilComplete(Scenarios);
            Loop.Stop();
        }
    }
}
