// Seed 002's ConfigureAwaitAttribute at assembly, type and method level, nearest wins: under
// ConfigureAwait(false) an await with no explicit ConfigureAwait leaves a single-threaded loop after
// it suspends, as ConfigureAwait(false) would (Task, Task<T>, ValueTask, and awaits of other rewritten
// methods); an explicit .ConfigureAwait(true) still comes back; a type or method marked
// ConfigureAwait(true) inside the assembly-wide false comes back too. Classic async ignores the
// attribute, so this runs against its stated transcript.
using System;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

[assembly: ConfigureAwait(false)]

static class Work
{
    public static bool Suspend;
    public static SingleThreadLoop Loop = null!;

    public static string Here => Thread.CurrentThread == Loop.Thread ? "loop" : "pool";

    public static Task Pending() => Suspend ? Task.Delay(1) : Task.CompletedTask;

    public static Task<int> PendingValue() => Suspend ? Task.Delay(1).ContinueWith(_ => 1) : Task.FromResult(1);

    // Under the assembly's ConfigureAwait(false) too: comes back to whatever its caller is on.
    public static async Task<string> Callee()
    {
        string at = Work.Here;
        await Pending().ConfigureAwait(true);
        return "callee started on " + at;
    }
}

static class AssemblyDefault
{
    public static async Task<string> Run()
    {
        string s = "assembly false: start " + Work.Here;
        await Work.Pending();
        s += ", Task " + Work.Here;
        return s;
    }

    public static async Task<string> ValueForms()
    {
        int v = await Work.PendingValue();
        string s = "assembly false: Task<T> " + Work.Here;
        return s;
    }

    public static async Task<string> ValueTaskForm()
    {
        await new ValueTask(Work.Pending());
        return "assembly false: ValueTask " + Work.Here;
    }

    public static async Task<string> ExplicitTrue()
    {
        await Work.Pending().ConfigureAwait(true);
        return "assembly false, explicit true: " + Work.Here;
    }

    public static async Task<string> AwaitsCallee()
    {
        string c = await Work.Callee();
        return "assembly false, after " + c + ": " + Work.Here;
    }
}

[ConfigureAwait(true)]
static class TypeTrue
{
    public static async Task<string> Run()
    {
        await Work.Pending();
        return "type true: " + Work.Here;
    }

    [ConfigureAwait(false)]
    public static async Task<string> MethodFalse()
    {
        await Work.Pending();
        return "type true, method false: " + Work.Here;
    }

    public static async Task<string> AwaitsCallee()
    {
        string c = await Work.Callee();
        return "type true, after " + c + ": " + Work.Here;
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
            Console.WriteLine("  back in Scenarios (method true): " + Work.Here);
        }
    }

    static void Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Work.Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Work.Loop = new SingleThreadLoop();
            Work.Loop.RunUntilComplete(Scenarios);
            Work.Loop.Stop();
        }
    }
}
