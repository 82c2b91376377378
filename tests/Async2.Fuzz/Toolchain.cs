using Async2.TestSupport;
using System.Reflection;
using Async2.Rewriter;

namespace Async2.Fuzz;

/// <summary>Compiles a program both ways with the SDK's own csc, rewrites the runtime-async build, and runs programs.</summary>
public static class Toolchain
{
    private static string Metadata(string key) =>
        typeof(Toolchain).Assembly.GetCustomAttributes<AssemblyMetadataAttribute>().Single(a => a.Key == key).Value
        ?? throw new InvalidOperationException($"the fuzzer has no {key} metadata");

    public static string RepositoryRoot => Metadata("RepositoryRoot");

    private static string DotnetHost => Path.Combine(Metadata("DotnetRoot"), OperatingSystem.IsWindows() ? "dotnet.exe" : "dotnet");

    private static string CscPath => Path.Combine(Metadata("DotnetRoot"), "sdk", Metadata("SdkVersion"), "Roslyn", "bincore", "csc.dll");

    private static readonly Lazy<IReadOnlyList<string>> s_referenceAssemblies = new(() => SdkTools.ReferenceAssemblies(Metadata("DotnetRoot")));

    /// <summary>The helpers every generated program is compiled with: the corpus's support files and the fuzzer's prelude.</summary>
    private static readonly Lazy<IReadOnlyList<string>> s_supportSources = new(() =>
    {
        using var resource = typeof(Toolchain).Assembly.GetManifestResourceStream("ProgramPrelude.cs")!;
        var text = new StreamReader(resource).ReadToEnd();
        // Keyed by content: fuzzers built from different sources may run at the same time.
        var hash = Convert.ToHexStringLower(System.Security.Cryptography.SHA256.HashData(System.Text.Encoding.UTF8.GetBytes(text)))[..16];
        var folder = Path.Combine(Path.GetTempPath(), "async2-fuzz-prelude-" + hash);
        Directory.CreateDirectory(folder);
        var prelude = Path.Combine(folder, "ProgramPrelude.cs");
        if (!File.Exists(prelude) || File.ReadAllText(prelude) != text)
            File.WriteAllText(prelude, text);
        return [prelude, .. Directory.GetFiles(Path.Combine(RepositoryRoot, "tests", "corpus", "support"), "*.cs").Order(StringComparer.Ordinal)];
    });

    public const string Usings = "global using System;\nglobal using System.Linq;\nglobal using System.Runtime.CompilerServices;\nglobal using System.Threading;\nglobal using System.Threading.Tasks;\n";

    /// <summary>Builds <paramref name="source"/> in <paramref name="folder"/>: classic and rewritten executables, compiled in parallel.</summary>
    public static (string Classic, string Rewritten) Build(string folder, string source, bool optimize = true)
    {
        Directory.CreateDirectory(folder);
        var sourcePath = Path.Combine(folder, "Program.cs");
        File.WriteAllText(sourcePath, source);
        var classic = Task.Run(() => Compile(folder, sourcePath, runtimeAsync: false, optimize));
        var runtimeAsync = Compile(folder, sourcePath, runtimeAsync: true, optimize);
        var rewritten = Path.Combine(folder, "rewritten", "Program.dll");
        var report = AssemblyRewriter.Rewrite(new RewriteRequest(runtimeAsync, rewritten));
        var leftClassic = report.Methods.Where(m => !m.Rewritten).ToList();
        if (leftClassic.Count > 0)
            throw new InvalidOperationException("the rewriter left methods classic: " + string.Join("; ", leftClassic.Select(m => $"{m.Method}: {m.Reason}")));
        File.Copy(Path.ChangeExtension(runtimeAsync, ".runtimeconfig.json"), Path.ChangeExtension(rewritten, ".runtimeconfig.json"), overwrite: true);
        return (classic.Result, rewritten);
    }

    private static string Compile(string folder, string sourcePath, bool runtimeAsync, bool optimize)
    {
        var output = Path.Combine(folder, runtimeAsync ? "runtime-async" : "classic");
        Directory.CreateDirectory(output);
        var dll = Path.Combine(output, "Program.dll");
        var usings = Path.Combine(folder, "Usings.cs");
        File.WriteAllText(usings, Usings);
        List<string> options =
        [
            "/nologo", "/target:exe", "/langversion:preview", "/nullable:enable", "/debug:portable", optimize ? "/optimize+" : "/optimize-", "/deterministic+",
            "/nowarn:CS8602,CS8604,CS8618,CS1998,CS0162,CS0168,CS0219,CS4014,CS8321,CS0164",
            $"/out:{dll}",
            .. s_referenceAssemblies.Value.Select(r => $"/reference:\"{r}\""),
            $"\"{sourcePath}\"", $"\"{usings}\"",
            .. s_supportSources.Value.Select(s => $"\"{s}\""),
        ];
        if (runtimeAsync)
            options.AddRange(["/features:runtime-async=on", "/nowarn:SYSLIB5007"]);
        var responseFile = Path.Combine(output, "csc.rsp");
        File.WriteAllLines(responseFile, options);
        var (exitCode, stdout, stderr, _) = SdkTools.Run(DotnetHost, [CscPath, "@" + responseFile], TimeSpan.FromMinutes(3));
        if (exitCode != 0)
            throw new InvalidOperationException($"csc failed ({(runtimeAsync ? "runtime-async" : "classic")}) on {sourcePath}:\n{stdout}{stderr}");
        File.WriteAllText(Path.ChangeExtension(dll, ".runtimeconfig.json"), """
            {
              "runtimeOptions": {
                "tfm": "net10.0",
                "framework": { "name": "Microsoft.NETCore.App", "version": "10.0.0" }
              }
            }
            """);
        return dll;
    }

    /// <summary>Runs a built program (never under DOTNET_RuntimeAsync) with <paramref name="environment"/> set; TimedOut when it had to be killed.</summary>
    public static (int ExitCode, string Stdout, string Stderr, bool TimedOut) RunProgram(string assembly, IEnumerable<string> args, TimeSpan timeout,
        IReadOnlyDictionary<string, string?>? environment = null) =>
        SdkTools.Run(DotnetHost, [assembly, .. args], timeout, environment: environment);
}
