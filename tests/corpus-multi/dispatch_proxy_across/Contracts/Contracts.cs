// An interface with a rewritten implementation in its own assembly (so the interface gets
// Async2's entries), and a helper of that assembly awaiting through the interface.
using System.Threading.Tasks;

namespace Across;

public interface IClock
{
    Task<long> Now(int offset);
    ValueTask<string> Zone();
}

public sealed class Clock : IClock
{
    public async Task<long> Now(int offset) { await Pause.Maybe(); return 1000 + offset; }
    public async ValueTask<string> Zone() { await Pause.Maybe(); return "UTC"; }
}

public static class Pause
{
    public static bool Suspend;
    public static async Task Maybe()
    {
        if (Suspend) await Task.Yield();
    }
}

public static class Use
{
    public static async Task<string> Read(IClock clock) => $"{await clock.Now(1)} {await clock.Zone()}";
}
