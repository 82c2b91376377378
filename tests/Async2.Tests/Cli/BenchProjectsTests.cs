using Async2.TestSupport;
using Async2.Tests.Corpus;
using Xunit;

namespace Async2.Tests.Cli;

/// <summary>
/// async2 bench and async2 demo build their projects with obj/ and bin/ under artifacts/; the
/// sources a build in place left in a project's own obj/ or bin/ must not be compiled into theirs.
/// </summary>
public sealed class BenchProjectsTests : IDisposable
{
    private readonly List<string> _made = [];

    public void Dispose()
    {
        foreach (var path in Enumerable.Reverse(_made))
        {
            if (File.Exists(path))
                File.Delete(path);
            else if (Directory.Exists(path) && !Directory.EnumerateFileSystemEntries(path).Any())
                Directory.Delete(path);
        }
    }

    [Theory]
    [InlineData("bench", "Async2.Bench")]
    [InlineData("bench", "Async2.Bench.Library")]
    [InlineData("bench", "Async2.Bench.WebApi")]
    [InlineData("bench", "Async2.Bench.Charts")]
    [InlineData("samples", "FibAsync")]
    public void Sources_in_a_stray_obj_or_bin_folder_are_not_compiled(string parent, string project)
    {
        var folder = Path.Combine(TestEnvironment.RepositoryRoot, parent, project);
        var stray = $"Stray{Guid.NewGuid():N}.cs";
        foreach (var output in new[] { "obj", "bin" })
            Leave(Path.Combine(folder, output, "Release"), stray);

        // The output folders as async2 bench and demo pass them (BenchCommand.Build, DemoCommand).
        var elsewhere = Path.Combine(Path.GetTempPath(), "async2-bench-projects", project);
        var (exitCode, stdout, stderr, _) = SdkTools.Run(TestEnvironment.DotnetHost,
            ["msbuild", Path.Combine(folder, project + ".csproj"), "-getItem:Compile",
             $"-p:OutputPath={elsewhere}{Path.DirectorySeparatorChar}", $"-p:BaseIntermediateOutputPath={elsewhere}-obj{Path.DirectorySeparatorChar}"],
            TimeSpan.FromMinutes(2));

        Assert.True(exitCode == 0, stdout + stderr);
        Assert.Contains(".cs", stdout);
        Assert.DoesNotContain(stray, stdout);
    }

    /// <summary>Writes a source file into <paramref name="folder"/>, making what is missing; all of it goes again in Dispose.</summary>
    private void Leave(string folder, string file)
    {
        var missing = new List<string>();
        for (var d = new DirectoryInfo(folder); !d.Exists; d = d.Parent!)
            missing.Insert(0, d.FullName);
        foreach (var directory in missing)
        {
            Directory.CreateDirectory(directory);
            _made.Add(directory);
        }
        var path = Path.Combine(folder, file);
        File.WriteAllText(path, "// left by a build in place");
        _made.Add(path);
    }
}
