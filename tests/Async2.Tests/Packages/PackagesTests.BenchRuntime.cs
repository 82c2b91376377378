using System.IO.Compression;
using Async2.Cli.Bench;
using Async2.Tests.Corpus;
using Xunit;

namespace Async2.Tests.Packages;

// In this class, not a class of its own: the bench builds the image in the folder packing writes to.
public sealed partial class PackagesTests
{
    /// <summary>
    /// async2 bench's Async2 builds run Async2.Runtime as the package gives it on this machine: the
    /// package's ReadyToRun image where it carries one, the IL elsewhere; either way the build the
    /// rewriter's code is tied to, even where a folder held another (an up-to-date rewrite keeps its files).
    /// </summary>
    [Fact]
    public void The_bench_runs_Async2_Runtime_as_the_package_gives_it_here()
    {
        var folder = Directory.CreateTempSubdirectory("async2-bench-runtime-").FullName;
        try
        {
            var installed = Path.Combine(folder, "Async2.Runtime.dll");
            File.Copy(typeof(Async2.Rewriter.AssemblyRewriter).Assembly.Location, installed);

            var outcome = RuntimeLibraryImage.Install(TestEnvironment.RepositoryRoot, [folder], output.WriteLine);

            Assert.Null(outcome.Problem);
            // The loaded library's MVID through reflection: a check the file reader under test cannot pass by itself.
            Assert.Equal(typeof(Async2.Runtime.Continuation).Module.ModuleVersionId, RuntimeLibraryImage.ModuleVersionId(installed));
            var identifier = RuntimeLibraryImage.MachineIdentifier();
            if (!ReadyToRunIdentifiers.Contains(identifier))
            {
                Assert.False(IsReadyToRunImage(installed));
                Assert.Contains($"no ReadyToRun image for {identifier}", outcome.Description);
                return;
            }
            Assert.True(IsReadyToRunImage(installed), $"the bench's Async2.Runtime is IL, not the {identifier} image: {outcome.Description}");
            using var package = ZipFile.OpenRead(Path.Combine(workspace.Feed, $"Async2.Runtime.{workspace.Version}.nupkg"));
            using var packaged = new MemoryStream();
            using (var entry = package.GetEntry($"runtimes/{identifier}/lib/net10.0/Async2.Runtime.dll")!.Open())
                entry.CopyTo(packaged);
            Assert.True(packaged.ToArray().AsSpan().SequenceEqual(File.ReadAllBytes(installed)), $"the bench's image differs from the package's runtimes/{identifier} entry");
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }
}
