// Compiled into every corpus and expected-transcript program: a named SynchronizationContext that
// runs posted callbacks on the thread pool with itself installed as the current context (and the
// worker's previous context put back afterwards), so code can tell which context it runs under.
using System.Threading;

sealed class ThreadPoolContext : SynchronizationContext
{
    public ThreadPoolContext(string name) { Name = name; }

    public string Name { get; }

    /// <summary>The name of the current context: a ThreadPoolContext's, "none", or "other".</summary>
    public static string CurrentName => Current switch
    {
        ThreadPoolContext named => named.Name,
        null => "none",
        _ => "other",
    };

    public override void Post(SendOrPostCallback d, object? state) =>
        ThreadPool.QueueUserWorkItem(_ =>
        {
            var previous = Current;
            SetSynchronizationContext(this);
            try { d(state); }
            finally { SetSynchronizationContext(previous); }
        });

    public override SynchronizationContext CreateCopy() => this;
}
