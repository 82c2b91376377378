// Seed 002's ConfigureAwaitAttribute and the methods the compiler generates: async lambdas and local
// functions inside a type marked ConfigureAwait(false) follow the type (they are methods of it or of
// its nested closure classes); a lambda inside a method marked ConfigureAwait(false) does not follow
// the method (attributes on a method do not reach its lambdas), while the method's own await of the
// lambda's task does. On a single-threaded loop; classic async ignores the attribute, so this runs
// against its stated transcript.
using System;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

static class Work
{
    public static bool Suspend;
    public static SingleThreadLoop Loop = null!;

    public static string Here => Thread.CurrentThread == Loop.Thread ? "loop" : "pool";

    public static Task Pending() => Suspend ? Task.Delay(1) : Task.CompletedTask;
}

[ConfigureAwait(false)]
static class FalseType
{
    public static async Task<string> Lambda()
    {
        Func<Task<string>> lambda = async () =>
        {
            await Work.Pending();
            return "lambda in false type " + Work.Here;
        };
        return await lambda();
    }

    public static async Task<string> LocalFunction()
    {
        int captured = 1;
        async Task<string> Local()
        {
            await Work.Pending();
            return "local function " + captured + " in false type " + Work.Here;
        }
        return await Local();
    }
}

static class Plain
{
    [ConfigureAwait(false)]
    public static async Task<string> MethodWithLambda()
    {
        Func<Task<string>> lambda = async () =>
        {
            await Work.Pending();
            return "lambda in false method " + Work.Here;
        };
        string fromLambda = await lambda();
        return fromLambda + ", the method after awaiting it " + Work.Here;
    }
}

static class Program
{
    static async Task Scenarios()
    {
        foreach (var scenario in new Func<Task<string>>[] { FalseType.Lambda, FalseType.LocalFunction, Plain.MethodWithLambda })
        {
            Console.WriteLine("  " + await scenario());
            Console.WriteLine("  back in Scenarios " + Work.Here);
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
