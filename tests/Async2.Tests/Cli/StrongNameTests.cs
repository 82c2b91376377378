using Async2.Tests.Corpus;
using Async2.Tests.Packages;
using Xunit;
using static Async2.Tests.Cli.CliRun;

namespace Async2.Tests.Cli;

/// <summary>
/// A strong-name signed input: a rewrite changes the bytes its signature covers, so
/// <c>async2 rewrite --key-file</c> signs the output again with the input's key; without one it
/// keeps the public key and says that the output is not signed; a key that is not the input's is
/// refused (ASYNC2005), since it would change the assembly's identity.
/// </summary>
public sealed class StrongNameTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("async2-strong-name-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    [Fact]
    public void Rewrite_signs_the_output_again_with_the_inputs_key()
    {
        var (input, key) = SignedProgram();
        var output = Path.Combine(_folder, "signed", "Signed.dll");

        var (exitCode, _, stderr) = RunAsync2("rewrite", input, "-o", output, "--key-file", key);

        Assert.True(exitCode == 0, stderr);
        Assert.Equal("", stderr);
        Assert.Equal(StrongNameSignature.State.Valid, StrongNameSignature.Check(input));
        Assert.Equal(StrongNameSignature.State.Valid, StrongNameSignature.Check(output));
        File.Copy(ProgramBuilder.RuntimeConfigOf(input), ProgramBuilder.RuntimeConfigOf(output));
        Assert.Equal("42\n[exit code 0]", ProgramRunner.Transcript(output, runtimeAsync: false));
    }

    [Fact]
    public void Rewrite_without_the_key_keeps_the_public_key_and_warns_that_the_output_is_not_signed()
    {
        var (input, _) = SignedProgram();
        var output = Path.Combine(_folder, "unsigned", "Signed.dll");

        var (exitCode, _, stderr) = RunAsync2("rewrite", input, "-o", output);

        Assert.True(exitCode == 0, stderr);
        Assert.Contains($"warning ASYNC2005: {input} is strong-name signed", stderr);
        Assert.Contains("--key-file", stderr);
        Assert.Equal(StrongNameSignature.State.NotSigned, StrongNameSignature.Check(output));
    }

    [Fact]
    public void Rewrite_with_another_key_or_none_readable_refuses_with_ASYNC2005_and_writes_nothing()
    {
        var (input, _) = SignedProgram();
        var before = Fingerprint(input);
        var otherKey = Path.Combine(_folder, "other.snk");
        File.WriteAllBytes(otherKey, StrongNameSignature.NewKeyPair());
        var notAKey = Path.Combine(_folder, "text.snk");
        File.WriteAllText(notAKey, "not a key");
        var output = Path.Combine(_folder, "refused", "Signed.dll");

        var other = RunAsync2("rewrite", input, "-o", output, "--key-file", otherKey);
        var text = RunAsync2("rewrite", input, "-o", output, "--key-file", notAKey);
        var missing = RunAsync2("rewrite", input, "-o", output, "--key-file", Path.Combine(_folder, "missing.snk"));

        Assert.Equal(1, other.ExitCode);
        Assert.Contains("error ASYNC2005", other.Stderr);
        Assert.Contains("its public key is not the one the input was compiled with", other.Stderr);
        Assert.Equal(1, text.ExitCode);
        Assert.Contains("error ASYNC2005", text.Stderr);
        Assert.Contains("holds no strong-name key pair", text.Stderr);
        Assert.Equal(1, missing.ExitCode);
        Assert.Contains("error ASYNC2005", missing.Stderr);
        Assert.Contains("cannot be read", missing.Stderr);
        Assert.False(Directory.Exists(Path.GetDirectoryName(output)), "the folder made for the output was left behind");
        Assert.Equal(before, Fingerprint(input));
    }

    /// <summary>A runtime-async program signed by the compiler, and its key file.</summary>
    private (string Program, string Key) SignedProgram()
    {
        var key = Path.Combine(_folder, "signing.snk");
        File.WriteAllBytes(key, StrongNameSignature.NewKeyPair());
        var source = Path.Combine(_folder, "Program.cs");
        File.WriteAllText(source, $$"""
            [assembly: System.Reflection.AssemblyKeyFile(@"{{key}}")]
            static async System.Threading.Tasks.Task<int> Twice(int n) { await System.Threading.Tasks.Task.Yield(); return n * 2; }
            System.Console.WriteLine(await Twice(21));
            """);
        return (ProgramBuilder.Compile("Signed", [source], runtimeAsync: true), key);
    }
}
