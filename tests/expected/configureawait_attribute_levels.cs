// Seed 002's ConfigureAwaitAttribute at assembly, type and method level, nearest wins: under
// ConfigureAwait(false) an await with no explicit ConfigureAwait leaves a single-threaded loop after
// it suspends, as ConfigureAwait(false) would (Task, Task<T>, ValueTask, and awaits of other rewritten
// methods); an explicit .ConfigureAwait(true) still comes back; a type or method marked
// ConfigureAwait(true) inside the assembly-wide false comes back too. Classic async ignores the
// attribute, so this runs against its stated transcript.
using System;
using System.Collections.Concurrent;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

[assembly: ConfigureAwait(false)]

namespace System.Runtime.CompilerServices
{
    // The seed's definition, declared by the program: the rewriter matches the attribute by full name.
    [AttributeUsage(AttributeTargets.Assembly | AttributeTargets.Module | AttributeTargets.Class | AttributeTargets.Struct | AttributeTargets.Method)]
    sealed class ConfigureAwaitAttribute : Attribute
    {
        public ConfigureAwaitAttribute(bool continueOnCapturedContext) { ContinueOnCapturedContext = continueOnCapturedContext; }
        public bool ContinueOnCapturedContext { get; }
    }
}

sealed class Loop : SynchronizationContext
{
    private readonly BlockingCollection<(SendOrPostCallback, object?)> queue = new();
    public static Thread? Thread;

    public override void Post(SendOrPostCallback d, object? state) => queue.Add((d, state));

    public override SynchronizationContext CreateCopy() => this;

    public static void Run(Func<Task> body)
    {
        var loop = new Loop();
        Thread = new Thread(() =>
        {
            SetSynchronizationContext(loop);
            var task = body();
            task.ContinueWith(_ => loop.queue.CompleteAdding(), TaskScheduler.Default);
            foreach (var (callback, state) in loop.queue.GetConsumingEnumerable())
                callback(state);
            task.GetAwaiter().GetResult();
        });
        Thread.Start();
        Thread.Join();
    }

    public static string Here => System.Threading.Thread.CurrentThread == Thread ? "loop" : "pool";
}

static class Work
{
    public static bool Suspend;

    public static Task Pending() => Suspend ? Task.Delay(1) : Task.CompletedTask;

    public static Task<int> PendingValue() => Suspend ? Task.Delay(1).ContinueWith(_ => 1) : Task.FromResult(1);

    // Under the assembly's ConfigureAwait(false) too: comes back to whatever its caller is on.
    public static async Task<string> Callee()
    {
        string at = Loop.Here;
        await Pending().ConfigureAwait(true);
        return "callee started on " + at;
    }
}

static class AssemblyDefault
{
    public static async Task<string> Run()
    {
        string s = "assembly false: start " + Loop.Here;
        await Work.Pending();
        s += ", Task " + Loop.Here;
        return s;
    }

    public static async Task<string> ValueForms()
    {
        int v = await Work.PendingValue();
        string s = "assembly false: Task<T> " + Loop.Here;
        return s;
    }

    public static async Task<string> ValueTaskForm()
    {
        await new ValueTask(Work.Pending());
        return "assembly false: ValueTask " + Loop.Here;
    }

    public static async Task<string> ExplicitTrue()
    {
        await Work.Pending().ConfigureAwait(true);
        return "assembly false, explicit true: " + Loop.Here;
    }

    public static async Task<string> AwaitsCallee()
    {
        string c = await Work.Callee();
        return "assembly false, after " + c + ": " + Loop.Here;
    }
}

[ConfigureAwait(true)]
static class TypeTrue
{
    public static async Task<string> Run()
    {
        await Work.Pending();
        return "type true: " + Loop.Here;
    }

    [ConfigureAwait(false)]
    public static async Task<string> MethodFalse()
    {
        await Work.Pending();
        return "type true, method false: " + Loop.Here;
    }

    public static async Task<string> AwaitsCallee()
    {
        string c = await Work.Callee();
        return "type true, after " + c + ": " + Loop.Here;
    }
}

static class Program
{
    [ConfigureAwait(true)]
    static async Task Scenarios()
    {
        foreach (var scenario in new Func<Task<string>>[]
        {
            AssemblyDefault.Run, AssemblyDefault.ValueForms, AssemblyDefault.ValueTaskForm, AssemblyDefault.ExplicitTrue,
            AssemblyDefault.AwaitsCallee, TypeTrue.Run, TypeTrue.MethodFalse, TypeTrue.AwaitsCallee,
        })
        {
            Console.WriteLine("  " + await scenario());
            Console.WriteLine("  back in Scenarios (method true): " + Loop.Here);
        }
    }

    static void Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Work.Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Loop.Run(Scenarios);
        }
    }
}
