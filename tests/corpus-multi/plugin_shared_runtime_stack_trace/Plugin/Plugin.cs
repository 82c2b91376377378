using System;
using System.Threading.Tasks;
namespace Plugin;
public static class Entry
{
    public static async Task<int> RunAsync()
    {
        await Task.Yield();
        // A plugin logging its logical stack (Async2's diagnostics API); absent in the classic app.
        var capture = Type.GetType("Async2.Runtime.AsyncStackTrace, Async2.Runtime")?.GetMethod("Capture");
        capture?.Invoke(null, null);
        return 42;
    }
}
