using System.CommandLine;
using System.CommandLine.Parsing;
using Async2.Cli.Runtimes;

namespace Async2.Cli;

/// <summary>
/// <c>async2 runtime &lt;version&gt;</c>: restores a .NET release's runtime packs and prints the dotnet
/// root laid out from them (RuntimePacks), for running builds there by hand; and the
/// <c>--runtime</c> option <c>run</c> shares with it.
/// </summary>
internal static class RuntimeCommand
{
    public const string OptionName = "--runtime";

    public const string Details = """
        Details:
          Restores the release's runtime packs (Microsoft.NETCore.App.Runtime.<rid> and
          Microsoft.AspNetCore.App.Runtime.<rid>) through NuGet, from the sources your nuget.config
          names, lays them out as a dotnet root in the cache (once; later calls only print it) and
          prints that folder. An app built for net10.0 then runs there, classic, runtime-async or
          rewritten, with:
            DOTNET_ROOT=<root> DOTNET_ROLL_FORWARD=Major <root>/dotnet app.dll
          'async2 run --runtime 11 app.dll' does that for a rewritten app. '11' means 11.0.0; a full
          version names another release.

        Cache:
          $ASYNC2_CACHE, else $XDG_CACHE_HOME/async2, else ~/.cache/async2 (safe to delete).

        Exit codes:
          0  the root's path is on stdout
          1  the packs could not be restored (offline, or a version your sources do not serve)
          2  usage error
        """;

    public static Command Create()
    {
        var version = new Argument<string>("version")
        {
            Description = "the release: 11 (11.0.0), or a full version such as 11.0.0",
            CustomParser = Release,
        };
        var command = new Command("runtime", "Lays out a .NET release from its NuGet runtime packs and prints its dotnet root.") { version };
        command.SetAction(parseResult => Print(parseResult.GetRequiredValue(version)));
        return command;
    }

    public static Option<string> CreateRuntimeOption()
    {
        return new Option<string>(OptionName)
        {
            Description = "run on this .NET release, restored from its NuGet runtime packs: 11, or a full version",
            HelpName = "version",
            CustomParser = Release,
        };
    }

    /// <summary>
    /// The full version a value names (11 is 11.0.0). A value that names no release is a usage
    /// error (exit 2), found before anything is restored.
    /// </summary>
    private static string? Release(ArgumentResult result)
    {
        var value = result.Tokens is [{ Value: var token }] ? token : "";
        if (RuntimePacks.VersionFor(value) is { } version)
            return version;
        result.AddError($"'{value}' is not a .NET release: write 11 (11.0.0), or a full version such as 11.0.1.");
        return null;
    }

    /// <summary>The laid-out root of <paramref name="version"/> (as the argument's or option's parser gives it); progress on stderr.</summary>
    public static RuntimeRoot Ensure(string version, string cacheRoot) => RuntimePacks.Ensure(version, cacheRoot, Console.Error);

    private static int Print(string version)
    {
        Console.WriteLine(Ensure(version, ToolCache.Root).Folder);
        return ExitCodes.Success;
    }
}
