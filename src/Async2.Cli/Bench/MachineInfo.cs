using System.Diagnostics;
using System.Globalization;
using System.Reflection;
using System.Runtime.InteropServices;

namespace Async2.Cli.Bench;

/// <summary>What the numbers were measured on: CPU, cores, OS, SDK and runtime versions, commit.</summary>
internal static class MachineInfo
{
    public static Dictionary<string, string> Collect(string repository)
    {
        var lscpu = Run("lscpu", []);
        string? Field(string name) => lscpu?.Split('\n')
            .Select(l => l.Split(':', 2))
            .FirstOrDefault(p => p.Length == 2 && p[0].Trim() == name)?[1].Trim();

        return new Dictionary<string, string>
        {
            ["CPU"] = Field("Model name") ?? RuntimeInformation.ProcessArchitecture.ToString(),
            ["Cores"] = $"{Environment.ProcessorCount} logical (lscpu: {Field("CPU(s)") ?? "?"} CPU(s), {Field("Thread(s) per core") ?? "?"} thread(s) per core)",
            ["OS"] = RuntimeInformation.OSDescription,
            ["Architecture"] = RuntimeInformation.OSArchitecture.ToString(),
            ["dotnet --version (SDK)"] = Run(ChildProcess.DotnetHost, ["--version"])?.Trim() ?? "?",
            ["Runtime"] = $"{RuntimeInformation.FrameworkDescription} ({Environment.Version})",
            ["async2"] = typeof(MachineInfo).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion ?? "?",
            ["Commit"] = Run("git", ["-C", repository, "rev-parse", "--short", "HEAD"])?.Trim() ?? "?",
            ["Date"] = DateTimeOffset.Now.ToString("yyyy-MM-dd HH:mm zzz", CultureInfo.InvariantCulture),
        };
    }

    private static string? Run(string file, string[] args)
    {
        try
        {
            var info = new ProcessStartInfo(file) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
            foreach (var a in args)
                info.ArgumentList.Add(a);
            info.Environment["LC_ALL"] = "C";
            using var p = Process.Start(info);
            if (p is null)
                return null;
            var text = p.StandardOutput.ReadToEnd();
            p.WaitForExit();
            return p.ExitCode == 0 ? text : null;
        }
        catch (System.ComponentModel.Win32Exception)
        {
            return null;
        }
    }
}

/// <summary>Number formatting shared by the progress lines and the tables.</summary>
internal static class Format
{
    public static string Number(double value)
    {
        if (double.IsNaN(value))
            return "–";
        var abs = Math.Abs(value);
        return abs >= 1000 ? value.ToString("N0", CultureInfo.InvariantCulture)
            : abs >= 100 ? value.ToString("F0", CultureInfo.InvariantCulture)
            : abs >= 10 ? value.ToString("F1", CultureInfo.InvariantCulture)
            : value.ToString("F2", CultureInfo.InvariantCulture);
    }

    public static string Ratio(double ratio) => double.IsNaN(ratio) || double.IsInfinity(ratio) ? "–" : ratio.ToString(ratio >= 10 ? "F1" : ratio >= 0.1 ? "F2" : "F3", CultureInfo.InvariantCulture) + "×";

    public static string Bytes(double? bytes) => bytes is not { } b || double.IsNaN(b) ? "–"
        : b < 0.5 ? "0" : b.ToString(b >= 100 ? "N0" : "F0", CultureInfo.InvariantCulture);
}
