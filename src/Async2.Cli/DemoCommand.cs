using System.CommandLine;
using System.Globalization;
using Async2.Cli.Runtimes;
using Async2.Rewriter;

namespace Async2.Cli;

/// <summary>
/// <c>async2 demo [n]</c>: builds samples/FibAsync classic and runtime-async, rewrites the latter,
/// runs all three and compares the rewritten transcript with the classic one; and, when .NET 11 can
/// be laid out (RuntimePacks), the runtime-async build on .NET 11's own runtime async as a fourth.
/// </summary>
internal static class DemoCommand
{
    private const string Sample = "FibAsync";

    public const string Details = """
        Details:
          Builds samples/FibAsync twice (classic async, runtime async), rewrites the runtime-async build
          with Async2 and runs all three with argument n:
            (a) classic                  stock runtime
            (b) runtime async            DOTNET_RuntimeAsync=1
            (c) rewritten by Async2      stock runtime
            (d) runtime async            .NET 11, natively (as 'async2 runtime 11' lays it out; when it
                                         cannot be restored, (d) says why and is left out)
          Prints each transcript and whether (c) matches (a), ignoring the 'time:' lines.
          Needs the repository (the folder with Async2.slnx) and the .NET SDK; builds go to artifacts/demo.

        Exit codes:
          0  (c) matches (a)
          1  a build, rewrite or run failed, or (c) differs
          2  usage error
        """;

    public static Command Create()
    {
        var n = new Argument<int?>("n")
        {
            Description = "passed to the sample: it computes Fib(n) (0 to 40; the sample's default is 30)",
            Arity = ArgumentArity.ZeroOrOne,
            // The sample refuses other values itself, but only after two builds: say so before them.
            CustomParser = result =>
            {
                var text = result.Tokens.Single().Value;
                if (int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var value) && value <= 40)
                    return value;
                result.AddError($"'{text}' is not a valid n: expected an integer from 0 to 40 (Fib(40) already takes seconds).");
                return null;
            },
        };
        var command = new Command("demo", "Builds, rewrites and runs the bundled FibAsync sample three ways, and on .NET 11.")
        {
            n,
        };
        command.SetAction(parseResult => Run(parseResult.GetValue(n)));
        return command;
    }

    private static int Run(int? n)
    {
        var repository = FindRepository();
        var project = Path.Combine(repository, "samples", Sample, Sample + ".csproj");
        var artifacts = Path.Combine(repository, "artifacts", "demo");
        var classic = Build(project, Path.Combine(artifacts, "classic"), runtimeAsync: false);
        var runtimeAsync = Build(project, Path.Combine(artifacts, "runtime-async"), runtimeAsync: true);

        var rewrittenFolder = Path.Combine(artifacts, "async2");
        var rewritten = Path.Combine(rewrittenFolder, Sample + ".dll");
        Console.WriteLine($"== async2 rewrite {Relative(repository, runtimeAsync)} -o {Relative(repository, rewritten)}");
        RewriteCommand.PrintReport(AssemblyRewriter.Rewrite(new RewriteRequest(runtimeAsync, rewritten) { Cancellation = Interruption.Token }));
        File.Copy(Path.ChangeExtension(runtimeAsync, ".runtimeconfig.json"), Path.ChangeExtension(rewritten, ".runtimeconfig.json"), overwrite: true);

        string[] appArgs = n is { } given ? [given.ToString(CultureInfo.InvariantCulture)] : [];
        var a = Show("(a) classic async, stock runtime", classic, appArgs, runtimeAsyncSwitch: false);
        var b = Show("(b) runtime async, DOTNET_RuntimeAsync=1", runtimeAsync, appArgs, runtimeAsyncSwitch: true);
        var c = Show("(c) runtime async rewritten by Async2, stock runtime", rewritten, appArgs, runtimeAsyncSwitch: false);

        bool same = Comparable(a) == Comparable(c);
        Console.WriteLine(same
            ? "(c) prints exactly what (a) prints (the 'time:' lines aside)."
            : "(c) DIFFERS from (a): this is a bug in Async2; please report it with the transcripts above.");
        if (Comparable(b) != Comparable(a))
            Console.WriteLine("note: (b), the runtime's own runtime async, differs from (a).");

        if (Net11() is { } net11)
        {
            var d = Show($"(d) runtime async, natively on .NET {net11.Version}", runtimeAsync, appArgs, runtimeAsyncSwitch: false, net11);
            if (Comparable(d) != Comparable(a))
                Console.WriteLine("note: (d), .NET 11's own runtime async, differs from (a).");
        }
        return same ? ExitCodes.Success : ExitCodes.Failure;
    }

    /// <summary>.NET 11 from the tool cache, restored there the first time; null, and (d) says why, when it cannot be.</summary>
    private static RuntimeRoot? Net11()
    {
        try
        {
            return RuntimePacks.Ensure(RuntimePacks.Net11, ToolCache.Root, Console.Out);
        }
        catch (CliException e)
        {
            Console.WriteLine($"== (d) runtime async on .NET {RuntimePacks.Net11}: left out, .NET {RuntimePacks.Net11} could not be laid out");
            foreach (var line in e.Message.ReplaceLineEndings("\n").Split('\n'))
                Console.WriteLine("   " + line);
            return null;
        }
    }

    private static string Build(string project, string output, bool runtimeAsync)
    {
        var kind = runtimeAsync ? "runtime-async" : "classic";
        Console.WriteLine($"== dotnet build {Sample} ({kind})");
        var (exitCode, log) = ChildProcess.RunCaptured(
        [
            "build", project, "-c", "Release", "-nologo", "-v", "quiet",
            $"-p:Async2RuntimeAsync={(runtimeAsync ? "true" : "false")}",
            $"-p:OutputPath={output}{Path.DirectorySeparatorChar}",
            $"-p:BaseIntermediateOutputPath={output}-obj{Path.DirectorySeparatorChar}",
        ]);
        if (exitCode != 0)
            throw CliException.Failure($"building the {kind} sample failed.", log.Trim(), "make sure 'dotnet build' works in this repository");
        return Path.Combine(output, Sample + ".dll");
    }

    private static string Show(string title, string app, string[] appArgs, bool runtimeAsyncSwitch, RuntimeRoot? runtime = null)
    {
        Console.WriteLine($"== {title}");
        var (exitCode, output) = ChildProcess.RunCaptured([app, .. appArgs], runtimeAsyncSwitch, runtime: runtime);
        var transcript = output + $"exit code {exitCode}{Environment.NewLine}";
        foreach (var line in transcript.TrimEnd().Split('\n'))
            Console.WriteLine("   " + line.TrimEnd('\r'));
        return transcript;
    }

    private static string Comparable(string transcript) =>
        string.Join('\n', transcript.Split('\n').Where(line => !line.StartsWith("time:", StringComparison.Ordinal)));

    private static string FindRepository()
    {
        foreach (var start in new[] { Environment.CurrentDirectory, AppContext.BaseDirectory })
            for (var folder = new DirectoryInfo(start); folder is not null; folder = folder.Parent)
                if (File.Exists(Path.Combine(folder.FullName, "Async2.slnx")))
                    return folder.FullName;
        throw CliException.Failure("cannot find the Async2 repository.", "demo builds samples/FibAsync from source and no Async2.slnx was found above this folder",
            "run 'async2 demo' from inside a clone of the repository");
    }

    private static string Relative(string root, string path) => Path.GetRelativePath(root, path);
}
