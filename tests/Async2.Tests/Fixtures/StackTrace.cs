// Fixture: exceptions thrown after a suspension, several async frames down; Main prints each ToString().
//   1. Inner throws; Middle and Scoped have no handler at their await (the dispatcher passes the
//      exception through them), Scoped calls Console (so it gets a context scope), Outer has a
//      finally, Main catches.
//   2. Recurse(150): 150 frames without a handler, more than one pass-through run.
//   3. Middle's Task, awaited as a Task: the exception leaves through the Task thunk, not a handler.
//   4. A throw before any suspension, awaited as a Task.
//   5. A classic override (left a compiler state machine) throwing after a suspension, awaited
//      through a base reference by a rewritten caller with no handler.
// Then how many frames of Async2's runtime a stack walk sees in a method resumed after Task.Yield
// (a chain root object) and after Task.Delay (the root in the builder's box): none, as classic.
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
    [RuntimeAsyncMethodGeneration(false)]
    public override async Task<int> Area()
    {
        await Task.Yield();
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

    static async Task<int> Measure(Shape shape)
    {
        int area = await shape.Area();
        return area;
    }

    static async Task Main()
    {
        try
        {
            await Outer(1);
        }
        catch (Exception e)
        {
            Console.WriteLine(e.ToString());
        }
        Console.WriteLine("----");
        try
        {
            await Recurse(150);
        }
        catch (Exception e)
        {
            Console.WriteLine(e.ToString());
        }
        Console.WriteLine("----");
        Task<int> task = Middle(2);
        try
        {
            await task;
        }
        catch (Exception e)
        {
            Console.WriteLine(e.ToString());
        }
        Console.WriteLine("----");
        task = ThrowsAtOnce(3);
        try
        {
            await task;
        }
        catch (Exception e)
        {
            Console.WriteLine(e.ToString());
        }
        Console.WriteLine("----");
        try
        {
            await Measure(new ClassicSquare());
        }
        catch (Exception e)
        {
            Console.WriteLine(e.ToString());
        }
        Console.WriteLine($"runtime frames after Task.Yield: {await RuntimeFramesAfter(yield: true)}");
        Console.WriteLine($"runtime frames after Task.Delay: {await RuntimeFramesAfter(yield: false)}");
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
