// The line a stack trace gives an async method's frame for the statement right after an await,
// where the compiler's Release code keeps a value on the evaluation stack: the await's result
// used by the next statement and again after a later await (classic async keeps it in its state
// machine, so the statement starts on its own line), the await's result used up before the next
// await (classic keeps it on the stack too, and the JIT gives the await's line), a value kept
// under a later await's result, and one of the same statement's awaits kept under the next (a
// deconstruction: classic spills it within the statement, and gives the statement's line).
// Before and after suspensions; file names and lines, directories stripped.
using System;
using System.Linq;
using System.Threading.Tasks;

sealed class User { public string Name = ""; public int Age; }

static class Program
{
    static bool Suspend;

    static async Task<int> Val(int v) { if (Suspend) await Task.Yield(); return v; }
    static async Task<User> GetUser(int id) { if (Suspend) await Task.Yield(); return new User { Name = "u" + id, Age = -id }; }
    static async Task Save(User u) { if (Suspend) await Task.Yield(); Console.WriteLine("saved " + u.Name); }
    static void Validate(User u) { if (u.Age < 0) throw new ArgumentException("age of " + u.Name); }
    static void Check(int v) { if (v > 0) throw new InvalidOperationException("bad " + v); }

    static async Task<int> UsedAgainAfterAnAwait()
    {
        int a = await Val(1);
        Check(a);
        return a + await Val(2);
    }

    static async Task<int> UsedAgainInALaterSum()
    {
        int a = await Val(3);
        Check(a - 3);
        int b = await Val(4);
        Check(a + b);
        return a + b + await Val(5);
    }

    static async Task UsedUpBeforeTheNextAwait(int id)
    {
        var user = await GetUser(id);
        Validate(user);
        await Save(user);
    }

    static async Task<int> DeconstructedFromAwaits()
    {
        int a, b;
        (a, b) = (await Val(1), await Val(2));
        Check(a + b);
        return a;
    }

    static async Task<string> AwaitedThroughATask()
    {
        string name = await Task.FromResult("task");
        Check(name.Length);
        return name + await Val(1);
    }

    static string Frames(Exception e) =>
        string.Join(" / ", e.StackTrace!.Split('\n').Select(line => line.Trim()).Where(line => line.Contains(" in "))
            .Take(2).Select(line => line[..line.IndexOf(" in ")] + " line " + line[(line.LastIndexOf(':') + 6)..]));

    static async Task Run(string name, Func<Task> body)
    {
        try
        {
            await body();
            Console.WriteLine(name + ": completed");
        }
        catch (Exception e)
        {
            Console.WriteLine($"{name}: {e.GetType().Name}: {Frames(e)}");
        }
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            await Run("used again after an await", UsedAgainAfterAnAwait);
            await Run("used again in a later sum", UsedAgainInALaterSum);
            await Run("used up before the next await", () => UsedUpBeforeTheNextAwait(7));
            await Run("deconstructed from awaits", DeconstructedFromAwaits);
            await Run("awaited through a Task", AwaitedThroughATask);
        }
    }
}
