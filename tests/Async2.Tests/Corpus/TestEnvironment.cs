using System.Reflection;

namespace Async2.Tests.Corpus;

/// <summary>Where the SDK, the repository and the harness's scratch space are, as recorded at build time.</summary>
internal static class TestEnvironment
{
    private static string Metadata(string key) =>
        typeof(TestEnvironment).Assembly.GetCustomAttributes<AssemblyMetadataAttribute>().Single(a => a.Key == key).Value
        ?? throw new InvalidOperationException($"the test assembly has no {key} metadata");

    public static string DotnetRoot => Metadata("DotnetRoot");

    public static string RepositoryRoot => Metadata("RepositoryRoot");

    /// <summary>The configuration the tests (and so the projects they reference) were built in.</summary>
    public static string Configuration => Metadata("Configuration");

    /// <summary>The SDK's own C# compiler, the one <c>dotnet build</c> uses.</summary>
    public static string CscPath => Path.Combine(DotnetRoot, "sdk", Metadata("SdkVersion"), "Roslyn", "bincore", "csc.dll");

    public static string DotnetHost => Path.Combine(DotnetRoot, OperatingSystem.IsWindows() ? "dotnet.exe" : "dotnet");

    /// <summary>The net10.0 reference assemblies of the newest installed targeting pack.</summary>
    public static IReadOnlyList<string> ReferenceAssemblies { get; } = Async2.TestSupport.SdkTools.ReferenceAssemblies(DotnetRoot);

    /// <summary>Build outputs of the harness; kept between runs and keyed by content, so unchanged programs are not rebuilt.</summary>
    public static string Scratch => Path.Combine(RepositoryRoot, "artifacts", "tests");

    public static string CorpusFolder => Path.Combine(RepositoryRoot, "tests", "corpus");

    /// <summary>
    /// Helpers compiled into every corpus and expected-transcript program (one program is one
    /// file plus these), so programs share them instead of repeating them.
    /// </summary>
    public static IReadOnlyList<string> CorpusSupportFiles =>
        Directory.GetFiles(Path.Combine(CorpusFolder, "support"), "*.cs").Order(StringComparer.Ordinal).ToList();

    /// <summary>Programs that differ from classic async by design, each with its stated transcript.</summary>
    public static string ExpectedFolder => Path.Combine(RepositoryRoot, "tests", "expected");

    public static string FixturesFolder => Path.Combine(RepositoryRoot, "tests", "Async2.Tests", "Fixtures");

    /// <summary>
    /// ASYNC2_LONG_TESTS=1: the long mode, in which tests that run a sample in CI run everything
    /// (README, "Tests").
    /// </summary>
    public static bool LongTests => Environment.GetEnvironmentVariable("ASYNC2_LONG_TESTS") == "1";

    /// <summary>The async2 command built beside the tests.</summary>
    public static string CliPath => Path.Combine(AppContext.BaseDirectory, "async2.dll");
}
