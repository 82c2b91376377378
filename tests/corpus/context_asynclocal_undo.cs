// A callee's AsyncLocal changes are undone when it returns to its awaiting caller (classic async):
// returning synchronously, returning after suspending, throwing before and after suspending, through
// three levels where only the middle one changes the value, through ValueTask and generic callees,
// async lambdas and instance methods, and a caller whose own change survives its callee's.
using System;
using System.Threading;
using System.Threading.Tasks;

class Holder
{
    public readonly AsyncLocal<string?> Local = new AsyncLocal<string?>();

    public async Task<string> SetOnInstance(string value, bool suspend)
    {
        Local.Value = value;
        if (suspend) await Task.Yield();
        Local.Value = value + "!";
        return Local.Value;
    }
}

static class Program
{
    static bool Suspend;
    static readonly AsyncLocal<string?> Name = new AsyncLocal<string?>();

    static string Now => Name.Value ?? "null";

    static async Task Tick()
    {
        if (Suspend) await Task.Delay(1);
    }

    static async Task SetsThenReturns(string value)
    {
        Name.Value = value;
        await Tick();
    }

    static async Task SetsAfterSuspending(string value)
    {
        await Tick();
        Name.Value = value;
    }

    static async Task SetsThenThrows(string value, bool afterSuspending)
    {
        if (afterSuspending) await Tick();
        Name.Value = value;
        throw new InvalidOperationException("thrown with " + Now);
    }

    static async Task<string> Middle()
    {
        Name.Value = "middle";
        await Leaf();
        return "middle saw " + Now;
    }

    static async Task Leaf()
    {
        await Tick();
    }

    static async ValueTask<int> ValueTaskCallee()
    {
        Name.Value = "valuetask";
        await Tick();
        return Now.Length;
    }

    static async Task<T> GenericCallee<T>(T value)
    {
        Name.Value = "generic " + value;
        await Tick();
        return value;
    }

    static async Task<string> Run()
    {
        Name.Value = "caller";
        string s = "";
        await SetsThenReturns("a");
        s += "after SetsThenReturns " + Now;
        await SetsAfterSuspending("b");
        s += "\nafter SetsAfterSuspending " + Now;
        foreach (var after in new[] { false, true })
        {
            try { await SetsThenThrows("c", after); }
            catch (InvalidOperationException e) { s += $"\ncaught '{e.Message}' (after={after}), now " + Now; }
        }
        s += "\n" + await Middle() + ", caller " + Now;
        s += "\nvaluetask " + await ValueTaskCallee() + ", caller " + Now;
        s += "\ngeneric " + await GenericCallee(42) + ", caller " + Now;
        Func<Task<string>> lambda = async () => { Name.Value = "lambda"; await Tick(); return Now; };
        s += "\nlambda saw " + await lambda() + ", caller " + Now;
        var holder = new Holder();
        holder.Local.Value = "holder";
        s += "\ninstance returned " + await holder.SetOnInstance("inst", Suspend) + ", holder now " + holder.Local.Value;
        Name.Value = "caller2";
        await SetsThenReturns("d");
        s += "\nown change kept: " + Now;
        return s;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Run());
            Console.WriteLine("main: " + Now);
        }
    }
}
