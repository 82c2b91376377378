// Explicit interface implementations seen through reflection and stack traces. Their metadata names
// contain dots ("IJob.Run", "IStore<System.Int32>.Get", "Tools.Inner.IWorker.Work"), and the
// [AsyncStateMachine(typeof(...))] on each names a generated type nested in the class; reading the
// attributes must resolve that type (a DI container, test framework or serializer scanning
// attributes would fail otherwise), and an exception thrown after a suspension must show the
// implementation as classic async shows it (at Worker.IJob.Run()), not a generated method.
using System;
using System.Linq;
using System.Reflection;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

namespace Tools.Inner
{
    interface IWorker
    {
        Task<int> Work(int x);
    }
}

interface IJob
{
    Task Run();
}

interface IStore<T>
{
    Task<T> Get(T key);
}

class Worker : IJob, IStore<int>, IStore<string>, Tools.Inner.IWorker
{
    async Task IJob.Run()
    {
        await Program.Pause();
        Console.WriteLine("  IJob.Run");
    }

    async Task<int> IStore<int>.Get(int key)
    {
        await Program.Pause();
        return key + 1;
    }

    async Task<string> IStore<string>.Get(string key)
    {
        await Program.Pause();
        return key + "!";
    }

    async Task<int> Tools.Inner.IWorker.Work(int x)
    {
        await Program.Pause();
        if (x < 0)
            throw new InvalidOperationException("negative work");
        return x * 2;
    }
}

class GenericWorker<T> : IStore<T>
{
    async Task<T> IStore<T>.Get(T key)
    {
        await Program.Pause();
        if (key is null)
            throw new ArgumentNullException(nameof(key));
        return key;
    }
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    const BindingFlags Declared = BindingFlags.DeclaredOnly | BindingFlags.Instance | BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic;

    // The explicit implementations, not the unspeakable methods a compiler may add beside them.
    static void DescribeExplicitImplementations(Type type)
    {
        Console.WriteLine($"{type.Name}:");
        foreach (var method in type.GetMethods(Declared).Where(m => m.Name.Contains('.') && !m.Name.StartsWith('<')).OrderBy(m => m.Name, StringComparer.Ordinal))
        {
            object[] attributes;
            try
            {
                attributes = method.GetCustomAttributes(false);
            }
            catch (Exception e)
            {
                Console.WriteLine($"  {method.Name}: {e.GetType().Name}");
                continue;
            }
            if (attributes.OfType<AsyncStateMachineAttribute>().SingleOrDefault()?.StateMachineType is not { } stateMachine)
            {
                Console.WriteLine($"  {method.Name}: no [AsyncStateMachine]");
                continue;
            }
            // The generated type's name up to its kind marker: Roslyn's "<IJob-Run>" for "IJob.Run".
            string prefix = stateMachine.Name.Substring(0, stateMachine.Name.IndexOf('>') + 1);
            Console.WriteLine($"  {method.Name}: state machine {prefix}... nested in {stateMachine.DeclaringType?.Name}, found by name: {type.Assembly.GetType(stateMachine.FullName!) == stateMachine}");
        }
    }

    static void PrintFrames(Exception e)
    {
        Console.WriteLine($"  {e.GetType().Name}: {e.Message}");
        foreach (var line in e.StackTrace!.Split('\n'))
        {
            string frame = line.Trim();
            int location = frame.IndexOf(" in ", StringComparison.Ordinal);
            Console.WriteLine("    " + (location < 0 ? frame : frame.Substring(0, location)));
        }
    }

    static async Task Main()
    {
        DescribeExplicitImplementations(typeof(Worker));
        DescribeExplicitImplementations(typeof(GenericWorker<>));
        DescribeExplicitImplementations(typeof(GenericWorker<long>));

        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            var worker = new Worker();
            await ((IJob)worker).Run();
            Console.WriteLine($"  {await ((IStore<int>)worker).Get(1)} {await ((IStore<string>)worker).Get("a")} {await ((Tools.Inner.IWorker)worker).Work(4)}");
            Console.WriteLine($"  {await ((IStore<long>)new GenericWorker<long>()).Get(5)}");
            try
            {
                await ((Tools.Inner.IWorker)worker).Work(-1);
            }
            catch (InvalidOperationException e)
            {
                PrintFrames(e);
            }
            try
            {
                await ((IStore<string>)new GenericWorker<string>()).Get(null!);
            }
            catch (ArgumentNullException e)
            {
                PrintFrames(e);
            }
        }
    }
}
