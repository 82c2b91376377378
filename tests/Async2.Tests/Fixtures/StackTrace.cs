// Fixture: exceptions thrown after a suspension, several async frames down; Main prints each ToString().
//   1. Inner throws; Middle and Scoped have no handler at their await (the dispatcher passes the
//      exception through them), Scoped calls Console (so it gets a context scope), Outer has a
//      finally, Main catches.
//   2. Recurse(150): 150 frames without a handler, more than one pass-through run.
//   3. Middle's Task, awaited as a Task: the exception leaves through the Task thunk, not a handler.
//   4. A throw before any suspension, awaited as a Task.
//   5. A classic override (left a compiler state machine) throwing after a suspension, awaited
//      through a base reference by a rewritten caller with no handler.
//   6. Inner under a method marked AggressiveInlining, which in classic async inlines only the
//      stub that starts the state machine: its frame stays in the trace.
//   7, 8. A local the compiler keeps on the evaluation stack across an await (of a rewritten
//      method, of a Task), thrown by the next statement: the throw's line, not the await's.
// Each trace is followed by the frames of Async2's runtime that the exception's raw frames hold
// and that are not marked [StackTraceHidden]: renderers other than Exception.ToString (ASP.NET
// Core's developer exception page) show those, where ToString leaves out inlining candidates too.
// Then how many frames of Async2's runtime a stack walk sees in a method resumed after Task.Yield
// (a chain root object) and after Task.Delay (the root in the builder's box): none, as classic.
// Run with the argument "unwound-frames", it prints only how many stack frames of Recurse's methods
// (its state machine's, its continuation class's) the exception of trace 2 unwound.
using System;
using System.Linq;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

class Shape
{
    public virtual async Task<int> Area()
    {
        await Task.Yield();
        return 1;
    }
}

class ClassicSquare : Shape
{
    // Completed once the caller has awaited: with Task.Yield, a pool thread could fault the Task
    // before Measure awaited it, and Measure then threw at once rather than being passed through.
    private static readonly TaskCompletionSource s_measured = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public static void Release() => s_measured.SetResult();

    [RuntimeAsyncMethodGeneration(false)]
    public override async Task<int> Area()
    {
        await s_measured.Task;
        throw new InvalidOperationException("classic override");
    }
}

static class Program
{
    static async Task<int> Inner(int x)
    {
        await Task.Yield();
        if (x > 0)
            throw new InvalidOperationException("boom");
        return x;
    }

    static async Task<int> Middle(int x)
    {
        int r = await Inner(x);
        return r + 1;
    }

    static async Task<int> Scoped(int x)
    {
        Console.WriteLine("in Scoped");
        int r = await Middle(x);
        return r + 1;
    }

    static async Task<int> Outer(int x)
    {
        try
        {
            return await Scoped(x) * 2;
        }
        finally
        {
            Console.WriteLine("finally in Outer");
        }
    }

    static async Task<int> Recurse(int depth)
    {
        if (depth == 0)
        {
            await Task.Yield();
            throw new InvalidOperationException("deep");
        }
        return await Recurse(depth - 1) + 1;
    }

    static async Task<int> ThrowsAtOnce(int x)
    {
        if (x > 0)
            throw new ArgumentException("at once");
        await Task.Yield();
        return x;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    static async Task<int> Inlined(int x) => await Inner(x) + 1;

    static async Task<int> CallsInlined(int x) => await Inlined(x) * 2;

    static async Task Pause() => await Task.Yield();

    // The compiler's Release code keeps `kept` on the evaluation stack across the await, so the
    // statement after it starts where the stack is not empty.
    static async Task<int> ThrowsKeptLocal(int x)
    {
        var kept = new InvalidOperationException("kept across a call's await: " + x);
        await Pause();
        throw kept;
    }

    static async Task<int> ThrowsKeptLocalAfterDelay(int x)
    {
        var kept = new InvalidOperationException("kept across a task's await: " + x);
        await Task.Delay(1);
        throw kept;
    }

    static async Task<int> Measure(Shape shape)
    {
        int area = await shape.Area();
        return area;
    }

    static async Task Main(string[] args)
    {
        if (args is ["unwound-frames"])
        {
            try
            {
                await Recurse(150);
            }
            catch (Exception e)
            {
                int unwound = new System.Diagnostics.StackTrace(e).GetFrames()
                    .Count(frame => frame.GetMethod()?.DeclaringType?.Name.Contains("Recurse") == true);
                Console.WriteLine($"stack frames of Recurse unwound: {unwound}");
            }
            return;
        }
        try
        {
            await Outer(1);
        }
        catch (Exception e)
        {
            Show(e);
        }
        Console.WriteLine("----");
        try
        {
            await Recurse(150);
        }
        catch (Exception e)
        {
            Show(e);
        }
        Console.WriteLine("----");
        Task<int> task = Middle(2);
        try
        {
            await task;
        }
        catch (Exception e)
        {
            Show(e);
        }
        Console.WriteLine("----");
        task = ThrowsAtOnce(3);
        try
        {
            await task;
        }
        catch (Exception e)
        {
            Show(e);
        }
        Console.WriteLine("----");
        try
        {
            var measured = Measure(new ClassicSquare());
            ClassicSquare.Release();
            await measured;
        }
        catch (Exception e)
        {
            Show(e);
        }
        Console.WriteLine("----");
        try
        {
            await CallsInlined(4);
        }
        catch (Exception e)
        {
            Show(e);
        }
        Console.WriteLine("----");
        try
        {
            await ThrowsKeptLocal(5);
        }
        catch (Exception e)
        {
            Show(e);
        }
        Console.WriteLine("----");
        try
        {
            await ThrowsKeptLocalAfterDelay(6);
        }
        catch (Exception e)
        {
            Show(e);
        }
        Console.WriteLine($"runtime frames after Task.Yield: {await RuntimeFramesAfter(yield: true)}");
        Console.WriteLine($"runtime frames after Task.Delay: {await RuntimeFramesAfter(yield: false)}");
    }

    static void Show(Exception e)
    {
        Console.WriteLine(e.ToString());
        var shown = new System.Diagnostics.StackTrace(e).GetFrames()
            .Select(frame => frame.GetMethod())
            .Where(method => method?.DeclaringType?.Assembly.GetName().Name == "Async2.Runtime"
                && !method.IsDefined(typeof(System.Diagnostics.StackTraceHiddenAttribute), inherit: false)
                && !method.DeclaringType.IsDefined(typeof(System.Diagnostics.StackTraceHiddenAttribute), inherit: false))
            .Select(method => $"{method!.DeclaringType!.Name}.{method.Name}");
        Console.WriteLine($"runtime frames a renderer shows: [{string.Join(", ", shown)}]");
    }

    static async Task<int> RuntimeFramesAfter(bool yield)
    {
        if (yield)
            await Task.Yield();
        else
            await Task.Delay(1);
        return Environment.StackTrace.Split('\n').Count(line => line.Contains("Async2.Runtime"));
    }
}
