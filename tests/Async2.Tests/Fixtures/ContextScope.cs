// Fixture: methods that can and cannot change the caller's contexts, inspected by ContextScopeTests.
using System.Threading;
using System.Threading.Tasks;

public static class Methods
{
    private static readonly AsyncLocal<int> Local = new();

    public static async Task<int> Fib(int n)
    {
        if (n < 2)
            return n;
        return await Fib(n - 1) + await Fib(n - 2);
    }

    public static async ValueTask<int> YieldsThenCalls()
    {
        await Task.Yield();
        await Task.Delay(1).ConfigureAwait(false);
        return await Fib(3);
    }

    public static async Task SetsAsyncLocal()
    {
        Local.Value = 1;
        await Task.Yield();
    }

    public static async Task AwaitsANonAsyncHelper() => await Helper();

    public static async Task SetsSynchronizationContext()
    {
        SynchronizationContext.SetSynchronizationContext(null);
        await Task.Yield();
    }

    public static async Task<int> ThrowsAfterSuspending(int n)
    {
        await Task.Yield();
        if (n < 0)
            throw new System.ArgumentOutOfRangeException(nameof(n), "negative: " + string.Concat("n", "<", "0"));
        return await Fib(n);
    }

    // A ValueTask may be backed by a user's IValueTaskSource, whose GetStatus and GetResult run here.
    public static async Task<int> AwaitsGivenValueTasks(ValueTask<int> first, ValueTask<int> second) =>
        await first + await second.ConfigureAwait(false);

    // Making one asks no source anything.
    public static async Task<int> MakesAValueTask(int n)
    {
        var made = new ValueTask<int>(n);
        await Task.Yield();
        return await Fib(n);
    }

    // Guards over core-library values call only those values' members.
    public static async Task<int> GuardsItsArguments(int n, string name)
    {
        System.ArgumentOutOfRangeException.ThrowIfNegative(n);
        System.ArgumentOutOfRangeException.ThrowIfGreaterThan(n, 30);
        System.ArgumentException.ThrowIfNullOrEmpty(name);
        return await Fib(n);
    }

    // Handle calls the predicate, which may change a context.
    public static async Task HandlesWithAPredicate(Task all, System.Func<System.Exception, bool> isExpected)
    {
        try
        {
            await all;
        }
        catch
        {
            all.Exception!.Handle(isExpected);
        }
    }

    // ThrowIfEqual<Id> calls Id's Equals, which may change a context.
    public static async Task GuardsAnAppValue(Id id)
    {
        System.ArgumentOutOfRangeException.ThrowIfEqual(id, default);
        await Task.Yield();
    }

    private static Task Helper() => Task.CompletedTask;

    public static void Main() { }
}

public readonly record struct Id(int Value);
