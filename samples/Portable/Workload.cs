using System.Runtime.CompilerServices;

namespace Samples.Portable;

/// <summary>
/// The async constructs an app meets, one transcript line each: suspensions on a yield, a timer and
/// a ValueTask, 200 frames of recursion, an exception thrown after a suspension, an async
/// enumerable, AsyncLocal, WhenAll and cancellation. The lines hold no timing, thread or runtime
/// detail, so every consumer, on every runtime, prints the same ones as the classic build.
/// </summary>
public static class Workload
{
    private static readonly AsyncLocal<string> Scope = new();

    public static async Task<IReadOnlyList<string>> RunAsync()
    {
        var lines = new List<string>();

        await Task.Yield();
        lines.Add("yield: resumed");

        await Task.Delay(5);
        lines.Add("delay: resumed");

        lines.Add($"value task: {await Twice(20, suspend: false)} {await Twice(21, suspend: true)}");

        lines.Add($"recursion: {await Depth(200)} frames");

        try
        {
            await Fail("after a suspension");
        }
        catch (InvalidOperationException e)
        {
            lines.Add($"exception: {e.GetType().Name}: {e.Message}");
        }

        var squares = new List<int>();
        await foreach (var square in Squares(5))
            squares.Add(square);
        lines.Add($"async enumerable: {string.Join(",", squares)}");

        Scope.Value = "caller";
        var seen = await ChangeScope();
        lines.Add($"async local: callee saw {seen}, caller still sees {Scope.Value}");

        var parts = await Task.WhenAll(Enumerable.Range(1, 4).Select(Part));
        lines.Add($"when all: {string.Join("+", parts)} = {parts.Sum()}");

        using var cancellation = new CancellationTokenSource();
        var waiting = WaitForever(cancellation.Token);
        cancellation.Cancel();
        try
        {
            await waiting;
        }
        catch (OperationCanceledException e)
        {
            lines.Add($"cancellation: {e.GetType().Name}, token cancelled: {e.CancellationToken == cancellation.Token}");
        }

        return lines;
    }

    private static async ValueTask<int> Twice(int n, bool suspend)
    {
        if (suspend)
            await Task.Yield();
        return n * 2;
    }

    private static async Task<int> Depth(int n)
    {
        if (n == 0)
        {
            await Task.Yield();
            return 0;
        }
        return await Depth(n - 1) + 1;
    }

    private static async Task Fail(string when)
    {
        await Task.Delay(1);
        throw new InvalidOperationException($"thrown {when}");
    }

    private static async IAsyncEnumerable<int> Squares(int count, [EnumeratorCancellation] CancellationToken cancellationToken = default)
    {
        for (int i = 1; i <= count; i++)
        {
            await Task.Yield();
            cancellationToken.ThrowIfCancellationRequested();
            yield return i * i;
        }
    }

    private static async Task<string?> ChangeScope()
    {
        await Task.Yield();
        Scope.Value = "callee";
        return Scope.Value;
    }

    private static async Task<int> Part(int n)
    {
        await Task.Delay(n);
        return n * 10;
    }

    private static async Task WaitForever(CancellationToken cancellationToken) =>
        await Task.Delay(Timeout.Infinite, cancellationToken);
}
