// Fixture: a loop of async calls that never suspend, loaded in-process by the allocation test.
using System.Threading.Tasks;

public static class Calls
{
    public static bool Suspend;

    private static async Task<long> Callee(long i)
    {
        if (Suspend)
            await Task.Yield();
        return i * 2;
    }

    private static async ValueTask<long> ValueCallee(long i)
    {
        if (Suspend)
            await Task.Yield();
        return i + 1;
    }

    private static async Task VoidCallee()
    {
        if (Suspend)
            await Task.Yield();
    }

    public static async Task<long> Loop(int count)
    {
        long sum = 0;
        for (int i = 0; i < count; i++)
        {
            sum += await Callee(i);
            sum += await ValueCallee(i);
            await VoidCallee();
        }
        return sum;
    }

    public static async Task<long> VirtualLoop(int count)
    {
        // A rewritten override reached through a base reference, an inherited one, one of an abstract
        // method, and covariant ones (Task<long> over Task) reached through the Task-returning base.
        Shape[] shapes = [new Square(), new Cube()];
        Solid solid = new Block();
        Job[] jobs = [new CountingJob(), new RecountingJob()];
        long sum = 0;
        for (int i = 0; i < count; i++)
        {
            sum += await shapes[i & 1].Area(i) + await solid.Volume(i);
            await jobs[i & 1].Run(i);
        }
        return sum + Job.Total;
    }

    public static async Task<long> InterfaceLoop(int count)
    {
        // Rewritten implementations reached through an interface: implicit and explicit.
        IMeasure[] measures = [new Ruler(), new Scale()];
        long sum = 0;
        for (int i = 0; i < count; i++)
            sum += await measures[i & 1].Measure(i);
        return sum;
    }

    public static void Main() { }
}

public class Shape
{
    public virtual async Task<long> Area(long side)
    {
        if (Calls.Suspend)
            await Task.Yield();
        return side;
    }
}

public class Square : Shape
{
    public override async Task<long> Area(long side)
    {
        if (Calls.Suspend)
            await Task.Yield();
        return side * side + 1000;
    }
}

public class Cube : Square { }

public interface IMeasure
{
    Task<long> Measure(long value);
}

public class Ruler : IMeasure
{
    public async Task<long> Measure(long value)
    {
        if (Calls.Suspend)
            await Task.Yield();
        return value + 1000;
    }
}

public sealed class Scale : IMeasure
{
    async Task<long> IMeasure.Measure(long value)
    {
        if (Calls.Suspend)
            await Task.Yield();
        return value * 3 + 1000;
    }
}

public abstract class Solid
{
    public abstract Task<long> Volume(long side);
}

public sealed class Block : Solid
{
    public override async Task<long> Volume(long side)
    {
        if (Calls.Suspend)
            await Task.Yield();
        return side * 5 + 1000;
    }
}

public class Job
{
    public static long Total;

    public virtual async Task Run(long value)
    {
        if (Calls.Suspend)
            await Task.Yield();
        Total += value;
    }
}

public class CountingJob : Job
{
    public override async Task<long> Run(long value)
    {
        if (Calls.Suspend)
            await Task.Yield();
        Total += value * 2;
        return Total + 1000;
    }
}

public class RecountingJob : CountingJob
{
    public override async Task<long> Run(long value) => await base.Run(value) + 1;
}
