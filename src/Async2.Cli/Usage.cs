using System.Reflection;

namespace Async2.Cli;

/// <summary>The help texts, kept together so they read as one manual.</summary>
internal static class Usage
{
    public const string Root = """
        async2 - run runtime-async .NET assemblies on the stock .NET 10 runtime

        Usage:
          async2 rewrite <in.dll> -o <out.dll>   rewrite one assembly
          async2 run <app.dll> [args...]         rewrite an app (cached) and run it
          async2 demo [n]                        build, rewrite and run the bundled FibAsync sample
          async2 bench [--quick]                 run the seed's benchmarks side by side (bench/)
          async2 <command> --help                help for one command
          async2 --version                       print the version

        Exit codes: 0 success, 1 failure, 2 usage error (run: the app's own exit code).
        """;

    public const string Rewrite = """
        Usage: async2 rewrite <in.dll> -o <out.dll>

        Rewrites every runtime-async method of <in.dll> (compiled with runtime-async=on) into a
        continuation-passing state machine that the stock .NET 10 runtime loads, and writes the result
        to <out.dll>, with Async2.Runtime.dll beside it and its debug symbols where <in.dll> had them
        (a portable .pdb beside it, or embedded). <in.dll> is never modified.
        An assembly without runtime-async methods is reported and nothing is written.

        Options:
          -o, --output <out.dll>   where to write the rewritten assembly (required; not <in.dll>)
          -h, --help               show this help

        Exit codes: 0 rewritten (or nothing to rewrite), 1 the assembly cannot be rewritten
        (each problem is printed as 'error ASYNC2nnn: ...'; nothing is written), 2 usage error.
        """;

    public const string Run = """
        Usage: async2 run <app.dll> [args...]

        Runs a .NET app whose assemblies were compiled with runtime-async=on on the stock runtime.
        The app folder is copied into a cache, its runtime-async assemblies are rewritten there, and
        'dotnet <cached app.dll> args...' runs with this console and without DOTNET_RuntimeAsync.
        The cache entry is keyed by every file of the app folder (path, size, time written) and the
        assemblies' MVIDs, so the rewrite happens again whenever the build changed anything.
        An app without runtime-async methods runs directly from its own folder.
        Everything after <app.dll> is passed to the app unchanged.

        Cache: $ASYNC2_CACHE, else $XDG_CACHE_HOME/async2, else ~/.cache/async2 (safe to delete).

        Exit codes: the app's exit code; 1 if the app cannot be rewritten or started; 2 usage error.
        """;

    public const string Demo = """
        Usage: async2 demo [n]

        Builds the bundled sample samples/FibAsync twice (classic async, runtime async), rewrites the
        runtime-async build with Async2 and runs all three with argument n (default 30):
          (a) classic                  stock runtime
          (b) runtime async            DOTNET_RuntimeAsync=1
          (c) rewritten by Async2      stock runtime
        Prints each transcript and whether (c) matches (a), ignoring the 'time:' lines.
        Needs the repository (the folder with Async2.slnx) and the .NET SDK; builds go to artifacts/demo.

        Exit codes: 0 (c) matches (a), 1 a build, rewrite or run failed or (c) differs, 2 usage error.
        """;

    public const string Bench = """
        Usage: async2 bench [--quick] [-o <folder>] [--only <names>] [--no-charts]

        Builds bench/Async2.Bench classic, runtime-async, and runtime-async with [assembly: FlowContexts]
        (cached under artifacts/bench), rewrites both runtime-async builds with Async2, and runs the
        seed's benchmarks side by side, each variant in worker processes: Sync, Task, ValueTask (classic
        build), Runtime (runtime-async build under DOTNET_RuntimeAsync=1), Async2 (the FlowContexts build
        rewritten: seed 002's flowing async2 semantics) and Async2Capture (the plain build rewritten:
        Async2's default, context-compatible mode), both on the stock runtime. Progress goes to stderr.
        Writes README.md (Markdown tables with ratios to Task, bytes allocated per operation, the
        machine and versions), results.json (every cell) and SVG charts to the results folder.

        Benchmarks: callcost, eh, ehfinally, gc, fib, suspend, chain, deep.

        Options:
          --quick            a smoke run (fewer depths, shorter windows; a few minutes)
          -o, --output <d>   results folder (default bench/results/<timestamp>[-quick])
          --only <a,b>       run only these benchmarks
          --no-charts        skip the SVG charts
          -h, --help         show this help

        Exit codes: 0 results written (failed cells are marked in the tables), 1 a build failed, 2 usage error.
        """;

    public static string Version
    {
        get
        {
            var assembly = typeof(Usage).Assembly;
            var version = assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion
                ?? assembly.GetName().Version?.ToString()
                ?? "unknown";
            return $"async2 {version} (.NET {Environment.Version})";
        }
    }

    /// <summary>True for the arguments that ask a command for its help.</summary>
    public static bool IsHelp(string argument) => argument is "-h" or "--help";
}
