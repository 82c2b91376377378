using System.Diagnostics;

namespace Async2.Cli.Runtimes;

/// <summary>
/// A dotnet root holding a .NET runtime other than the one running this tool (RuntimePacks lays it
/// out), and how to start an app built for net10.0 on it: its own <c>dotnet</c> host, with
/// DOTNET_ROOT pointing there so the host finds no other framework, and DOTNET_ROLL_FORWARD=Major
/// so the app's net10.0 runtimeconfig accepts the newer major version. The tests start their
/// .NET 11 runs with the same <see cref="Environment"/>.
/// </summary>
internal sealed record RuntimeRoot(string Folder, string Version)
{
    public string Host => Path.Combine(Folder, OperatingSystem.IsWindows() ? "dotnet.exe" : "dotnet");

    /// <summary>The variables a <c>dotnet</c> start from <see cref="Host"/> needs to run a net10.0 app here.</summary>
    public IReadOnlyDictionary<string, string> Environment => new Dictionary<string, string>
    {
        ["DOTNET_ROOT"] = Folder,
        ["DOTNET_ROLL_FORWARD"] = "Major",
        ["DOTNET_MULTILEVEL_LOOKUP"] = "0",
    };

    /// <summary>Points <paramref name="info"/> (a <c>dotnet</c> start) at this runtime.</summary>
    public void Apply(ProcessStartInfo info)
    {
        info.FileName = Host;
        foreach (var (name, value) in Environment)
            info.Environment[name] = value;
    }
}
