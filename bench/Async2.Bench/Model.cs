namespace Async2.Bench;

/// <summary>
/// Which async model this process runs the "same-model" (Task-returning) workloads under, and the
/// variant names its cells carry. The names must match the driver's (src/Async2.Cli/Bench/BenchPlan.cs,
/// <c>Variants</c>), which builds its tables from them.
/// </summary>
internal static class Model
{
#if RUNTIME_ASYNC_BUILD
    /// <summary>
    /// The rewritten build's name when this assembly was rewritten (it then references
    /// Async2.Runtime), else "Runtime"; without the runtime's suffix.
    /// </summary>
    public static string BaseName { get; } =
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
    public const string BaseName = "Task";
    public const bool IsClassicBuild = true;
    public const bool Listened = false;
#endif

    /// <summary>This process's variant: <see cref="BaseName"/>, "Listened" when a listener is attached, and the runtime's suffix.</summary>
    public static string Name => Variant(BaseName + (Listened ? "Listened" : ""));

    /// <summary>
    /// The major version of a runtime newer than the stock one this build targets (.NET 11, rolled
    /// forward), or null on the stock runtime. Read from the runtime actually running, so a worker
    /// that did not roll forward cannot fill an 11 column.
    /// </summary>
    public static int? NewerRuntime { get; } = Environment.Version.Major > 10 ? Environment.Version.Major : null;

    /// <summary>
    /// A variant's name as measured on this runtime: unchanged on the stock runtime; on .NET 11
    /// "Task11", "Sync11", "Runtime11", and for Async2's two builds "Async2_11", "Async2Capture_11"
    /// (the underscore keeps "Async2" apart from the version).
    /// </summary>
    public static string Variant(string name) => NewerRuntime is not { } major ? name
        : name.StartsWith("Async2", StringComparison.Ordinal) ? $"{name}_{major}" : $"{name}{major}";

    /// <summary>
    /// The ValueTask twins run on the stock runtime only: on .NET 11 the question is classic Task
    /// against the runtime's own runtime async, and the twins would double the classic worker's time.
    /// </summary>
    public static bool MeasuresValueTask => IsClassicBuild && NewerRuntime is null;

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
