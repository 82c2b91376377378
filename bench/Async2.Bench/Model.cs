namespace Async2.Bench;

/// <summary>Which async model this process runs the "same-model" (Task-returning) workloads under.</summary>
internal static class Model
{
#if RUNTIME_ASYNC_BUILD
    /// <summary>"Async2" when this assembly was rewritten (it then references Async2.Runtime), else "Runtime".</summary>
    public static readonly string Name =
        typeof(Model).Assembly.GetReferencedAssemblies().Any(a => a.Name == "Async2.Runtime") ? "Async2" : "Runtime";
    public const bool IsClassicBuild = false;
#else
    public const string Name = "Task";
    public const bool IsClassicBuild = true;
#endif
}
