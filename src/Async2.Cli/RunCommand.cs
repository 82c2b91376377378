using System.CommandLine;
using Async2.Rewriter;

namespace Async2.Cli;

/// <summary>
/// <c>async2 run &lt;app.dll&gt; [args...]</c>: rewrites the app's runtime-async assemblies into a
/// cache folder (again whenever a file of the app changed; AppCache.cs) and runs the cached copy.
/// </summary>
internal static class RunCommand
{
    private const string Name = "run";

    public const string Details = """
        Details:
          The app folder is copied into a cache, its runtime-async assemblies are rewritten there, and
          'dotnet <cached app.dll> args...' runs with this console and without DOTNET_RuntimeAsync.
          The cache entry is keyed by every file of the app folder (path, size, time written) and the
          assemblies' MVIDs, so the rewrite happens again whenever the build changed anything.
          An app without runtime-async methods runs directly from its own folder.
          Everything after <app.dll> goes to the app as it is, '-h' and '--' included.

        Cache:
          $ASYNC2_CACHE, else $XDG_CACHE_HOME/async2, else ~/.cache/async2 (safe to delete).

        Exit codes:
          the app's own exit code
          1  the app cannot be rewritten or started
          2  usage error
        """;

    public static Command Create()
    {
        var app = PathArgument.Create("app.dll", "the app's main assembly (its folder holds the .runtimeconfig.json)");
        var appArguments = new Argument<string[]>("args")
        {
            Description = "passed to the app unchanged, including ones that look like options and '--'",
            Arity = ArgumentArity.ZeroOrMore,
        };
        var command = new Command(Name, "Rewrites an app into a cache (again whenever it changed) and runs it.")
        {
            app,
            appArguments,
        };
        command.SetAction(parseResult => Run(parseResult.GetRequiredValue(app), parseResult.GetValue(appArguments) ?? []));
        return command;
    }

    /// <summary>
    /// Marks everything after <c>run &lt;app.dll&gt;</c> as the app's by putting <c>--</c> before it, so
    /// that the parser hands it over verbatim: without it, <c>-h</c> would show async2's help,
    /// <c>@file</c> would be expanded as a response file and the app's own <c>--</c> would be dropped.
    /// </summary>
    public static string[] PassAppArgumentsThrough(string[] args) =>
        args is [Name, var app, .. var rest] && !app.StartsWith('-') ? [Name, app, "--", .. rest] : args;

    private static int Run(string appPath, string[] appArguments)
    {
        var app = Path.GetFullPath(appPath);
        if (AssemblyFile.WhyNotAnInput(app) is { } why)
            throw CliException.Failure($"cannot run '{appPath}'.", why,
                "pass the app's main .dll (e.g. bin/Release/net10.0/App.dll, beside its .runtimeconfig.json), not its native launcher or another file");

        var cache = CacheRoot();
        string appToRun;
        try
        {
            appToRun = AppCache.Prepare(app, cache);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw CliException.Failure($"cannot make the rewritten copy of '{appPath}' in {cache}.", e.Message,
                "set ASYNC2_CACHE to a folder you can write to");
        }
        return ChildProcess.RunAttached([appToRun, .. appArguments]);
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
