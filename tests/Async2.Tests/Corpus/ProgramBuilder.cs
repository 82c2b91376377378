using System.Collections.Concurrent;
using System.Security.Cryptography;
using System.Text;
using Async2.Cli.Runtimes;
using Async2.Rewriter;

namespace Async2.Tests.Corpus;

/// <summary>The three builds of one test program.</summary>
/// <param name="Classic">Compiled with classic async (compiler state machines).</param>
/// <param name="RuntimeAsync">Compiled with runtime-async=on: runs only under DOTNET_RuntimeAsync=1.</param>
/// <param name="Rewritten">The runtime-async build rewritten by Async2: runs on the stock runtime.</param>
internal sealed record ProgramBuild(string Name, string Classic, string RuntimeAsync, string Rewritten, RewriteReport Report);

/// <summary>
/// Compiles C# test programs with the SDK's own csc, twice (classic and runtime-async), and
/// rewrites the runtime-async build. Compilations are cached by content under
/// <see cref="TestEnvironment.Scratch"/>; the rewrite is redone whenever the rewriter changes.
/// </summary>
internal static class ProgramBuilder
{
    private static readonly ConcurrentDictionary<string, Lazy<string>> s_compilations = new();
    private static readonly string s_rewriterIdentity =
        typeof(AssemblyRewriter).Assembly.ManifestModule.ModuleVersionId.ToString("N")[..12]
        + typeof(Async2.Runtime.Continuation).Assembly.ManifestModule.ModuleVersionId.ToString("N")[..12];

    /// <summary>Builds an executable from <paramref name="sources"/>.</summary>
    /// <param name="optimize">csc's /optimize: on, as Release builds compile; off, as <c>dotnet build</c> and <c>dotnet test</c> do by default (Debug).</param>
    public static ProgramBuild Build(string name, IReadOnlyList<string> sources, bool optimize = true)
    {
        var classic = Compile(name, sources, runtimeAsync: false, optimize: optimize);
        var runtimeAsync = Compile(name, sources, runtimeAsync: true, optimize: optimize);
        var rewrittenFolder = Path.Combine(Path.GetDirectoryName(runtimeAsync)!, "..", $"async2-{s_rewriterIdentity}");
        var rewritten = Path.GetFullPath(Path.Combine(rewrittenFolder, Path.GetFileName(runtimeAsync)));
        var report = AssemblyRewriter.Rewrite(new RewriteRequest(runtimeAsync, rewritten));
        File.Copy(RuntimeConfigOf(runtimeAsync), RuntimeConfigOf(rewritten), overwrite: true);
        return new ProgramBuild(name, classic, runtimeAsync, rewritten, report);
    }

    /// <summary>
    /// Compiles one flavour (cached), returning the path of the .dll: an exe, or a library when
    /// <paramref name="library"/> is set, referencing <paramref name="references"/> (paths of other compilations).
    /// </summary>
    /// <param name="debugType">csc's /debug: portable (a .pdb beside the .dll) or embedded (inside it).</param>
    public static string Compile(string name, IReadOnlyList<string> sources, bool runtimeAsync, IReadOnlyList<string>? references = null, bool library = false,
        string debugType = "portable", bool optimize = true)
    {
        references ??= [];
        IReadOnlyList<string> options = [.. CompilerOptions(runtimeAsync, library, debugType, optimize), .. OptionsAskedFor(sources)];
        var key = Hash(string.Join("\n", options) + "\n" + TestEnvironment.CscPath + "\n"
            + string.Join("\n", sources.Select(File.ReadAllText))
            + string.Concat(references.Select(r => "\n" + Convert.ToHexStringLower(SHA256.HashData(File.ReadAllBytes(r))))));
        var folder = Path.Combine(TestEnvironment.Scratch, "build", $"{name}-{key}", runtimeAsync ? "runtime-async" : "classic");
        return s_compilations.GetOrAdd(folder, _ => new Lazy<string>(() => CompileInto(folder, name, sources, options, references, library))).Value;
    }

    private static string CompileInto(string folder, string name, IReadOnlyList<string> sources, IReadOnlyList<string> options,
        IReadOnlyList<string> references, bool library)
    {
        var output = Path.Combine(folder, name + ".dll");
        if (File.Exists(output)) // the folder is moved into place complete
            return output;

        var scratch = folder + $".tmp-{Guid.NewGuid():N}";
        Directory.CreateDirectory(scratch);
        var responseFile = Path.Combine(scratch, "csc.rsp");
        File.WriteAllLines(responseFile,
        [
            .. options,
            $"/out:{Path.Combine(scratch, name + ".dll")}",
            .. TestEnvironment.ReferenceAssemblies.Concat(references).Select(r => $"/reference:\"{r}\""),
            .. sources.Select(s => $"\"{s}\""),
        ]);
        var (exitCode, stdout, stderr) = ProgramRunner.RunDotnet([TestEnvironment.CscPath, $"@{responseFile}"], runtimeAsync: false, timeout: TimeSpan.FromMinutes(3));
        if (exitCode != 0)
            throw new InvalidOperationException($"csc failed to compile {name} ({string.Join(" ", options)}):\n{stdout}{stderr}");
        if (!library)
            File.WriteAllText(Path.Combine(scratch, name + ".runtimeconfig.json"), RuntimeConfig);
        File.Delete(responseFile);
        try
        {
            Directory.Move(scratch, folder);
        }
        catch (IOException) when (Directory.Exists(folder))
        {
            Directory.Delete(scratch, recursive: true); // built concurrently by another test run
        }
        return output;
    }

    private static IReadOnlyList<string> CompilerOptions(bool runtimeAsync, bool library, string debugType, bool optimize)
    {
        var options = new List<string>
        {
            "/nologo", "/unsafe+", library ? "/target:library" : "/target:exe", "/langversion:preview", "/nullable:enable", $"/debug:{debugType}",
            optimize ? "/optimize+" : "/optimize-", "/deterministic+", "/nowarn:CS8602,CS8604,CS8618,CS1998,CS0162,CS0168,CS0219,CS4014",
        };
        if (runtimeAsync)
            options.AddRange(["/features:runtime-async=on", "/nowarn:SYSLIB5007"]);
        return options;
    }

    /// <summary>
    /// The compiler options a program asks for in <c>// csc: ...</c> lines among the comments it opens
    /// with (after the harness's, so they win): <c>/checked+</c>, <c>/instrument:TestCoverage</c>, a
    /// source generator. <c>$(Analyzers)</c> is the folder of the targeting pack's generators, as
    /// the SDK passes them to a project; <c>$(Folder)</c> the program's own folder.
    /// </summary>
    private static IEnumerable<string> OptionsAskedFor(IReadOnlyList<string> sources)
    {
        var analyzers = Path.GetFullPath(Path.Combine(Path.GetDirectoryName(TestEnvironment.ReferenceAssemblies[0])!, "..", "..", "analyzers", "dotnet", "cs"));
        return sources.SelectMany(source => File.ReadLines(source)
            .TakeWhile(line => line.StartsWith("//", StringComparison.Ordinal))
            .Where(line => line.StartsWith("// csc:", StringComparison.Ordinal))
            .SelectMany(line => line["// csc:".Length..].Split(' ', StringSplitOptions.RemoveEmptyEntries))
            .Select(option => option.Replace("$(Analyzers)", analyzers, StringComparison.Ordinal)
                .Replace("$(Folder)", Path.GetDirectoryName(Path.GetFullPath(source)), StringComparison.Ordinal)));
    }

    private const string RuntimeConfig = """
        {
          "runtimeOptions": {
            "tfm": "net10.0",
            "framework": { "name": "Microsoft.NETCore.App", "version": "10.0.0" }
          }
        }
        """;

    public static string RuntimeConfigOf(string assembly) => Path.ChangeExtension(assembly, ".runtimeconfig.json");

    public static string Hash(string text) =>
        Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(text)))[..16];
}

/// <summary>Runs <c>dotnet</c> child processes and captures what they print.</summary>
internal static class ProgramRunner
{
    /// <summary>
    /// What a run of a test program shows a user: standard output and the exit code. On the SDK's
    /// runtime, or on <paramref name="runtime"/> (.NET 11, <see cref="Net11"/>) when given.
    /// </summary>
    public static string Transcript(string assembly, bool runtimeAsync, RuntimeRoot? runtime = null)
    {
        var (exitCode, stdout, stderr) = RunDotnet([assembly], runtimeAsync, runtime: runtime);
        return TranscriptOf(exitCode, stdout, stderr);
    }

    /// <summary>The transcript of a run started otherwise (by <c>async2 run</c>, say).</summary>
    public static string TranscriptOf(int exitCode, string stdout, string stderr)
    {
        var transcript = stdout.ReplaceLineEndings("\n") + $"[exit code {exitCode}]";
        if (exitCode != 0 && stderr.Length > 0)
            transcript += $"\n[stderr first line] {stderr.ReplaceLineEndings("\n").Split('\n')[0]}";
        return transcript;
    }

    /// <summary>Runs <c>dotnet args</c>: the SDK's host, or <paramref name="runtime"/>'s started as <c>async2 run --runtime</c> starts it.</summary>
    public static (int ExitCode, string Stdout, string Stderr) RunDotnet(IEnumerable<string> args, bool runtimeAsync, TimeSpan? timeout = null,
        IReadOnlyDictionary<string, string?>? environment = null, RuntimeRoot? runtime = null)
    {
        if (runtime is null)
            return Run(TestEnvironment.DotnetHost, args, runtimeAsync, timeout, environment: environment);
        var variables = runtime.Environment.ToDictionary(v => v.Key, v => (string?)v.Value);
        foreach (var (name, value) in environment ?? new Dictionary<string, string?>())
            variables[name] = value;
        return Run(runtime.Host, args, runtimeAsync, timeout, environment: variables);
    }

    /// <summary>
    /// Runs <paramref name="program"/> to its end, never under DOTNET_RuntimeAsync unless
    /// <paramref name="runtimeAsync"/>; <paramref name="environment"/> sets (or, with a null value,
    /// removes) more variables. A run that outlasts <paramref name="timeout"/> fails the test.
    /// </summary>
    public static (int ExitCode, string Stdout, string Stderr) Run(string program, IEnumerable<string> args, bool runtimeAsync = false, TimeSpan? timeout = null,
        string? workingDirectory = null, IReadOnlyDictionary<string, string?>? environment = null)
    {
        var variables = new Dictionary<string, string?>(environment ?? new Dictionary<string, string?>());
        if (runtimeAsync)
            variables["DOTNET_RuntimeAsync"] = "1";
        var (exitCode, stdout, stderr, timedOut) = Async2.TestSupport.SdkTools.Run(program, args, timeout ?? TimeSpan.FromSeconds(60), workingDirectory, variables);
        if (timedOut)
            throw new TimeoutException($"'{program} {string.Join(" ", args)}' did not finish in time; output so far:\n{stdout}{stderr}");
        return (exitCode, stdout, stderr);
    }
}
