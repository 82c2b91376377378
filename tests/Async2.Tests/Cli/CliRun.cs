using System.Security.Cryptography;
using Async2.Tests.Corpus;

namespace Async2.Tests.Cli;

/// <summary>What the command-line tests share: the async2 command run as a user runs it, and a file's fingerprint, to show an input was left untouched.</summary>
internal static class CliRun
{
    /// <summary>Runs async2 as a child process on the stock runtime (no DOTNET_RuntimeAsync).</summary>
    public static (int ExitCode, string Stdout, string Stderr) RunAsync2(params string[] args) =>
        ProgramRunner.RunDotnet([TestEnvironment.CliPath, .. args], runtimeAsync: false);

    public static string Fingerprint(string path) => Convert.ToHexString(SHA256.HashData(File.ReadAllBytes(path)));
}
