namespace Async2.Bench;

/// <summary>Which async model this process runs the "same-model" (Task-returning) workloads under.</summary>
internal static class Model
{
#if RUNTIME_ASYNC_BUILD
    /// <summary>
    /// The rewritten build's name when this assembly was rewritten (it then references
    /// Async2.Runtime), else "Runtime".
    /// </summary>
    public static string Name => s_name + (Listened ? "Listened" : "");
    private static readonly string s_name =
        typeof(Model).Assembly.GetReferencedAssemblies().Any(a => a.Name == "Async2.Runtime") ? RewrittenName : "Runtime";

    /// <summary>Set by --listen: a metrics listener is attached, and cells are the "&lt;name&gt;Listened" variant.</summary>
    public static bool Listened { get; set; }
    public const bool IsClassicBuild = false;

#if ASYNC2_FLOWING
    /// <summary>Seed 002's async2 semantics: the build carries [assembly: FlowContexts] (FlowContexts.cs).</summary>
    private const string RewrittenName = "Async2";
#else
    /// <summary>Async2's default, context-compatible mode (seed 002's "Async2Capture").</summary>
    private const string RewrittenName = "Async2Capture";
#endif
#else
    public const string Name = "Task";
    public const bool IsClassicBuild = true;
#endif

    private static readonly AsyncLocal<int> s_probe = new();

    /// <summary>
    /// Whether an AsyncLocal value a callee sets is still visible to its caller after awaiting it:
    /// true only in Async2's flowing mode. The worker checks it against <see cref="Name"/> so a
    /// build in the wrong mode cannot fill the other variant's column.
    /// </summary>
    public static bool CalleeContextChangesFlow() => Runner.Wait(ProbeCaller());

    private static async Task<bool> ProbeCaller()
    {
        s_probe.Value = 0;
        await ProbeCallee();
        return s_probe.Value == 1;
    }

    private static async Task ProbeCallee()
    {
        s_probe.Value = 1;
        await Task.CompletedTask;
    }
}
