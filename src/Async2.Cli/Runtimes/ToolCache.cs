namespace Async2.Cli.Runtimes;

/// <summary>
/// The folder the tool keeps what it can make again: rewritten copies of apps (<c>run</c>) and
/// .NET runtimes laid out from their NuGet packs (<c>--runtime</c>). Named in RunCommand's and
/// RuntimeCommand's help and in the README; keep them in sync.
/// </summary>
internal static class ToolCache
{
    public static string Root
    {
        get
        {
            if (Environment.GetEnvironmentVariable("ASYNC2_CACHE") is { Length: > 0 } explicitRoot)
                return Path.GetFullPath(explicitRoot);
            // The XDG base directory specification has a relative path ignored, not taken from wherever async2 runs.
            var xdg = Environment.GetEnvironmentVariable("XDG_CACHE_HOME");
            var baseFolder = string.IsNullOrEmpty(xdg) || !Path.IsPathFullyQualified(xdg)
                ? Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.UserProfile), ".cache")
                : xdg;
            return Path.Combine(baseFolder, "async2");
        }
    }
}
