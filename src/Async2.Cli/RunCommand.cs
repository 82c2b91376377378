using System.CommandLine;
using Async2.Cli.Runtimes;
using Async2.Rewriter;

namespace Async2.Cli;

/// <summary>
/// <c>async2 run &lt;app.dll&gt; [args...]</c>: rewrites the app's runtime-async assemblies into a
/// cache folder (again whenever a file of the app changed; AppCache.cs) and runs the cached copy.
/// </summary>
internal static class RunCommand
{
    internal const string Name = "run";

    public const string Details = """
        Details:
          The app folder is copied into a cache, its runtime-async assemblies are rewritten there, and
          'dotnet <cached app.dll> args...' runs with this console and without DOTNET_RuntimeAsync.
          The cache entry is keyed by every file of the app folder (its path and a hash of its contents)
          and by this build of async2, so the rewrite happens again whenever the build changed anything.
          An entry that lost a file or had one cut short since it was made is made again.
          The rewritten app gets this version's Async2.Runtime.dll, or the app's own copy if that is a
          later version; an app whose assemblies another Async2 contract rewrote is refused (ASYNC2007).
          An app without runtime-async methods runs directly from its own folder.
          Everything after <app.dll> goes to the app as it is, '-h' and '--' included.

        Another runtime:
          --runtime 11 runs the rewritten app on .NET 11.0.0 instead of the runtime running async2: the
          first use restores that release's runtime packs (Microsoft.NETCore.App.Runtime.<rid>,
          Microsoft.AspNetCore.App.Runtime.<rid>) through NuGet from your sources and lays them out in
          the cache; the app runs with DOTNET_ROOT there and DOTNET_ROLL_FORWARD=Major. A full version
          (--runtime 11.0.1) names another release. 'async2 runtime 11' prints that dotnet root.

        Cache:
          $ASYNC2_CACHE, else $XDG_CACHE_HOME/async2, else ~/.cache/async2 (safe to delete).

        Exit codes:
          the app's own exit code
          1  the app cannot be rewritten or started, or the runtime cannot be restored
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
        var runtime = RuntimeCommand.CreateRuntimeOption();
        var command = new Command(Name, "Rewrites an app into a cache (again whenever it changed) and runs it.")
        {
            runtime,
            app,
            appArguments,
        };
        command.SetAction(parseResult => Run(parseResult.GetRequiredValue(app), parseResult.GetValue(appArguments) ?? [], parseResult.GetValue(runtime)));
        return command;
    }

    /// <summary>
    /// Marks everything after <c>run &lt;app.dll&gt;</c> as the app's by putting <c>--</c> before it, so
    /// that the parser hands it over verbatim: without it, <c>-h</c> would show async2's help,
    /// <c>@file</c> would be expanded as a response file and the app's own <c>--</c> would be dropped.
    /// </summary>
    public static string[] PassAppArgumentsThrough(string[] args)
    {
        if (args is not [Name, ..])
            return args;
        // run's own options come before <app.dll>.
        var app = 1;
        while (app < args.Length && args[app].StartsWith(RuntimeCommand.OptionName, StringComparison.Ordinal))
            app += args[app] == RuntimeCommand.OptionName ? 2 : 1;
        return app < args.Length && !args[app].StartsWith('-') ? [.. args[..(app + 1)], "--", .. args[(app + 1)..]] : args;
    }

    private static int Run(string appPath, string[] appArguments, string? runtimeVersion)
    {
        var app = Path.GetFullPath(appPath);
        if (AssemblyFile.WhyNotAnInput(app) is { } why)
            throw CliException.Failure($"cannot run '{appPath}'.", why,
                "pass the app's main .dll (e.g. bin/Release/net10.0/App.dll, beside its .runtimeconfig.json), not its native launcher or another file");
        // Without it the host would fail in the rewritten copy, naming files in the cache.
        var runtimeConfig = Path.ChangeExtension(app, ".runtimeconfig.json");
        if (!File.Exists(runtimeConfig))
            throw CliException.Failure($"cannot run '{appPath}'.",
                $"there is no {Path.GetFileName(runtimeConfig)} beside it, which the .NET host needs to start an app: it is a library, or not the app's main assembly",
                "pass the main .dll of an app (OutputType Exe), from the folder its build wrote");

        var cache = ToolCache.Root;
        var runtime = runtimeVersion is null ? null : RuntimeCommand.Ensure(runtimeVersion, cache);
        string appToRun;
        try
        {
            appToRun = AppCache.Prepare(app, cache, Interruption.Token);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw CliException.Failure($"cannot make the rewritten copy of '{appPath}' in {cache}.", e.Message,
                "set ASYNC2_CACHE to a folder you can write to");
        }
        return ChildProcess.RunAttached([appToRun, .. appArguments], runtime: runtime);
    }
}
