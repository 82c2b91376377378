using System.Diagnostics;

namespace Async2.Cli.Runtimes;

/// <summary>
/// A dotnet root holding a .NET runtime other than the one running this tool (RuntimePacks lays it
/// out), and how to start an app built for net10.0 on it: its own <c>dotnet</c> host, with
/// DOTNET_ROOT pointing there so the host finds no other framework, and DOTNET_ROLL_FORWARD=Major
/// so the app's net10.0 runtimeconfig accepts the newer major version.
/// </summary>
internal sealed record RuntimeRoot(string Folder, string Version)
{
    public string Host => Path.Combine(Folder, OperatingSystem.IsWindows() ? "dotnet.exe" : "dotnet");

    /// <summary>The variables that start an app with <see cref="Host"/> on this runtime (the package tests set them too).</summary>
    public IReadOnlyDictionary<string, string> Variables => new Dictionary<string, string>
    {
        ["DOTNET_ROOT"] = Folder,
        ["DOTNET_ROLL_FORWARD"] = "Major",
        ["DOTNET_MULTILEVEL_LOOKUP"] = "0",
    };

    /// <summary>Points <paramref name="info"/> (a <c>dotnet</c> start) at this runtime.</summary>
    public void Apply(ProcessStartInfo info)
    {
        info.FileName = Host;
        foreach (var (name, value) in Variables)
            info.Environment[name] = value;
    }
}
