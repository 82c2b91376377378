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
            {
                // A relative path would put a cache under every folder async2 is started from, and
                // ASYNC2_CACHE='~/x' (quoted, so the shell did not expand it) a folder named '~'.
                if (!Path.IsPathFullyQualified(explicitRoot))
                    throw CliException.Failure($"ASYNC2_CACHE is '{explicitRoot}', which is not an absolute path.",
                        explicitRoot.StartsWith('~') ? "the shell does not expand '~' inside quotes, and async2 does not expand it either" : "a relative cache would move with the folder async2 is started from",
                        "set ASYNC2_CACHE to an absolute path, e.g. ASYNC2_CACHE=\"$HOME/.cache/async2\", or unset it for the default");
                return explicitRoot;
            }
            // The XDG base directory specification has a relative path ignored, not taken from wherever async2 runs.
            var xdg = Environment.GetEnvironmentVariable("XDG_CACHE_HOME");
            var baseFolder = string.IsNullOrEmpty(xdg) || !Path.IsPathFullyQualified(xdg)
                ? Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.UserProfile), ".cache")
                : xdg;
            return Path.Combine(baseFolder, "async2");
        }
    }
}
