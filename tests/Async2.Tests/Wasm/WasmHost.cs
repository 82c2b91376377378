using System.Collections.Concurrent;
using System.Security.Cryptography;
using Async2.Tests.Corpus;

namespace Async2.Tests.Wasm;

/// <summary>
/// Builds tests/wasm-host (Mono on WebAssembly, the interpreter: no workload is installed) against
/// the Async2.Runtime.dll the tests' rewriter goes with, cached by content under artifacts/tests
/// like the corpus. The page is served from two folders: the build's wwwroot (the runtime and
/// assemblies) and the project's own (index.html, main.js).
/// </summary>
internal static class WasmHost
{
    private static readonly ConcurrentDictionary<string, Lazy<IReadOnlyList<string>>> s_builds = new();

    public static string ProjectFolder => Path.Combine(TestEnvironment.RepositoryRoot, "tests", "wasm-host");

    /// <summary>The folders the page is served from, the build's first.</summary>
    public static IReadOnlyList<string> Build()
    {
        var runtime = typeof(Async2.Runtime.Continuation).Assembly.Location;
        var sources = Directory.GetFiles(ProjectFolder, "*", SearchOption.AllDirectories)
            .Where(f => !f.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}") && !f.Contains($"{Path.DirectorySeparatorChar}bin{Path.DirectorySeparatorChar}"))
            .Order(StringComparer.Ordinal);
        var key = ProgramBuilder.Hash(string.Concat(sources.Select(f => Path.GetRelativePath(ProjectFolder, f) + Convert.ToHexStringLower(SHA256.HashData(File.ReadAllBytes(f)))))
            + Convert.ToHexStringLower(SHA256.HashData(File.ReadAllBytes(runtime))));
        var folder = Path.Combine(TestEnvironment.Scratch, "wasm-host", key);
        return s_builds.GetOrAdd(folder, _ => new Lazy<IReadOnlyList<string>>(() =>
        {
            if (!Directory.Exists(folder))
            {
                var scratch = folder + $".tmp-{Guid.NewGuid():N}";
                var (exitCode, stdout, stderr) = ProgramRunner.RunDotnet(
                    ["build", Path.Combine(ProjectFolder, "Async2.WasmHost.csproj"), "-c", "Release", "-o", scratch, $"-p:Async2RuntimePath={runtime}", "-nologo"],
                    runtimeAsync: false, timeout: TimeSpan.FromMinutes(8));
                if (exitCode != 0)
                    throw new InvalidOperationException($"the wasm host did not build:\n{stdout}{stderr}");
                try
                {
                    Directory.Move(scratch, folder);
                }
                catch (IOException) when (Directory.Exists(folder))
                {
                    Directory.Delete(scratch, recursive: true); // built concurrently by another test run
                }
            }
            return [Path.Combine(folder, "wwwroot"), Path.Combine(ProjectFolder, "wwwroot")];
        })).Value;
    }
}
