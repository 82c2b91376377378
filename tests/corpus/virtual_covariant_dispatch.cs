// Covariant-return overrides reached through the base method. C# compiles `override Task<int> M()`
// over `virtual Task M()` (and `override MyTask M()` where MyTask : Task) as a new virtual slot
// with an explicit .override of the base method and [PreserveBaseOverrides], so the base's slot
// runs the override although the override is `newslot`. Every call here awaits the base method
// directly from async code (the path that goes through Async2's virtual entries) and must reach the
// most derived body: rewritten or classic overrides, further overrides of a covariant override,
// generic bases closed and open, sealed overrides, an abstract base, and Task subclasses.
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

class Base
{
    public virtual async Task M()
    {
        await Program.Pause();
        Console.WriteLine("  Base.M");
    }
}

class ClassicCovariant : Base
{
    [RuntimeAsyncMethodGeneration(false)]
    public override async Task<int> M()
    {
        await Program.Pause();
        Console.WriteLine("  ClassicCovariant.M");
        return 42;
    }
}

class RewrittenCovariant : Base
{
    public override async Task<int> M()
    {
        await base.M();
        await Program.Pause();
        Console.WriteLine("  RewrittenCovariant.M");
        return 43;
    }
}

// Overrides of a covariant override: same signature as it, so plain overrides, rewritten and classic.
class RewrittenAboveCovariant : RewrittenCovariant
{
    public override async Task<int> M()
    {
        int inner = await base.M();
        Console.WriteLine("  RewrittenAboveCovariant.M");
        return inner + 1;
    }
}

class ClassicAboveCovariant : RewrittenCovariant
{
    [RuntimeAsyncMethodGeneration(false)]
    public override async Task<int> M()
    {
        int inner = await base.M();
        Console.WriteLine("  ClassicAboveCovariant.M");
        return inner + 2;
    }
}

// Covariant again: Task<int> over Task<int> is not covariant, but MyTask<int> over Task<int> is.
class TaskSubclassAboveCovariant : RewrittenCovariant
{
    public override MyTask<int> M()
    {
        Console.WriteLine("  TaskSubclassAboveCovariant.M");
        return MyTask<int>.Started(() => 44);
    }
}

sealed class SealedCovariant : Base
{
    public sealed override async Task<int> M()
    {
        await Program.Pause();
        Console.WriteLine("  SealedCovariant.M");
        return 45;
    }
}

class TaskSubclassOverride : Base
{
    public override MyTask M()
    {
        Console.WriteLine("  TaskSubclassOverride.M");
        return MyTask.Started(() => Console.WriteLine("  TaskSubclassOverride.M's task ran"));
    }
}

abstract class AbstractBase
{
    public abstract Task M();
}

class CovariantOfAbstract : AbstractBase
{
    public override async Task<int> M()
    {
        await Program.Pause();
        Console.WriteLine("  CovariantOfAbstract.M");
        return 46;
    }
}

class GenericBase<T>
{
    public virtual async Task M(T value)
    {
        await Program.Pause();
        Console.WriteLine($"  GenericBase<{typeof(T).Name}>.M({value})");
    }
}

class ClosedCovariant : GenericBase<int>
{
    public override async Task<int> M(int value)
    {
        await Program.Pause();
        Console.WriteLine($"  ClosedCovariant.M({value})");
        return value * 2;
    }
}

class ClassicClosedCovariant : GenericBase<int>
{
    [RuntimeAsyncMethodGeneration(false)]
    public override async Task<int> M(int value)
    {
        await Program.Pause();
        Console.WriteLine($"  ClassicClosedCovariant.M({value})");
        return value * 3;
    }
}

class OpenCovariant<T> : GenericBase<T>
{
    public override async Task<T> M(T value)
    {
        await Program.Pause();
        Console.WriteLine($"  OpenCovariant<{typeof(T).Name}>.M({value})");
        return value;
    }
}

class ClassicOpenCovariant<T> : GenericBase<T>
{
    [RuntimeAsyncMethodGeneration(false)]
    public override async Task<T> M(T value)
    {
        await Program.Pause();
        Console.WriteLine($"  ClassicOpenCovariant<{typeof(T).Name}>.M({value})");
        return value;
    }
}

class AboveOpenCovariant : OpenCovariant<string>
{
    public override async Task<string> M(string value)
    {
        string inner = await base.M(value);
        Console.WriteLine("  AboveOpenCovariant.M");
        return inner + "!";
    }
}

class MyTask(Action action) : Task(action)
{
    public static MyTask Started(Action action)
    {
        var task = new MyTask(action);
        if (Program.Suspend) task.Start(); else task.RunSynchronously();
        return task;
    }
}

class MyTask<T>(Func<T> function) : Task<T>(function)
{
    public static MyTask<T> Started(Func<T> function)
    {
        var task = new MyTask<T>(function);
        if (Program.Suspend) task.Start(); else task.RunSynchronously();
        return task;
    }
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task CallBase(Base target) => await target.M();
    static async Task CallAbstract(AbstractBase target) => await target.M();
    static async Task CallGeneric<T>(GenericBase<T> target, T value) => await target.M(value);
    static async Task CallGenericInt(GenericBase<int> target) => await target.M(5);
    static async Task<int> CallCovariant(RewrittenCovariant target) => await target.M();

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            var bases = new List<Base>
            {
                new Base(), new ClassicCovariant(), new RewrittenCovariant(), new RewrittenAboveCovariant(),
                new ClassicAboveCovariant(), new TaskSubclassAboveCovariant(), new SealedCovariant(), new TaskSubclassOverride(),
            };
            foreach (var target in bases)
            {
                Console.WriteLine($"{target.GetType().Name} as Base:");
                await CallBase(target);
                if (target is RewrittenCovariant covariant)
                    Console.WriteLine($"{target.GetType().Name} as RewrittenCovariant: {await CallCovariant(covariant)}");
            }

            Console.WriteLine("CovariantOfAbstract as AbstractBase:");
            await CallAbstract(new CovariantOfAbstract());

            foreach (var target in new GenericBase<int>[] { new GenericBase<int>(), new ClosedCovariant(), new ClassicClosedCovariant(), new OpenCovariant<int>(), new ClassicOpenCovariant<int>() })
            {
                Console.WriteLine($"{target.GetType().Name} as GenericBase<int>:");
                await CallGenericInt(target);
                await CallGeneric(target, 6);
            }
            foreach (var target in new GenericBase<string>[] { new OpenCovariant<string>(), new ClassicOpenCovariant<string>(), new AboveOpenCovariant() })
            {
                Console.WriteLine($"{target.GetType().Name} as GenericBase<string>:");
                await CallGeneric(target, "s");
            }
        }
    }
}
