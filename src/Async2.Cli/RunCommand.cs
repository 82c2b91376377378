using Async2.Rewriter;

namespace Async2.Cli;

/// <summary>
/// <c>async2 run &lt;app.dll&gt; [args...]</c>: rewrites the app's runtime-async assemblies into a
/// cache folder (again whenever a file of the app changed; AppCache.cs) and runs the cached copy.
/// </summary>
internal static class RunCommand
{
    public static int Run(string[] args)
    {
        if (args.Length == 0)
            throw CliException.Usage("run", "no app given.", "write async2 run <app.dll> [args...]");
        if (Usage.IsHelp(args[0]))
        {
            Console.WriteLine(Usage.Run);
            return ExitCodes.Success;
        }

        var app = Path.GetFullPath(args[0]);
        if (!File.Exists(app))
            throw CliException.Failure($"cannot run '{args[0]}'.", "the file does not exist", "pass the path of the app's main .dll (its bin folder holds the .runtimeconfig.json)");

        if (!AppCache.IsManagedAssembly(app))
            throw CliException.Failure($"cannot run '{args[0]}'.", "it is not a .NET assembly",
                "pass the app's main .dll (e.g. bin/Release/net10.0/App.dll), not its native launcher or another file");

        var cache = CacheRoot();
        string appToRun;
        try
        {
            appToRun = AppCache.Prepare(app, cache);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw CliException.Failure($"cannot make the rewritten copy of '{args[0]}' in {cache}.", e.Message,
                "set ASYNC2_CACHE to a folder you can write to");
        }
        return ChildProcess.RunAttached([appToRun, .. args[1..]]);
    }

    private static string CacheRoot()
    {
        if (Environment.GetEnvironmentVariable("ASYNC2_CACHE") is { Length: > 0 } explicitRoot)
            return explicitRoot;
        var xdg = Environment.GetEnvironmentVariable("XDG_CACHE_HOME");
        var baseFolder = string.IsNullOrEmpty(xdg)
            ? Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.UserProfile), ".cache")
            : xdg;
        return Path.Combine(baseFolder, "async2");
    }
}
