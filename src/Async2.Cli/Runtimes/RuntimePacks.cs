using System.Runtime.InteropServices;
using System.Text.Json;
using Async2.Rewriter;

namespace Async2.Cli.Runtimes;

/// <summary>
/// Makes a .NET runtime the SDK does not bring (.NET 11, for comparing with its own runtime async)
/// runnable: restores its runtime packs (Microsoft.NETCore.App.Runtime.&lt;rid&gt; and
/// Microsoft.AspNetCore.App.Runtime.&lt;rid&gt;) through NuGet, from the user's own sources, and lays
/// them out in the tool cache as a dotnet root: the SDK's <c>dotnet</c> host, the release's own
/// hostfxr, and each pack's managed and native files as a shared framework. The layout is built in a
/// scratch folder and renamed into place, so an entry that exists is complete. The folder names
/// follow the dotnet root layout the host expects (host/fxr/&lt;v&gt;, shared/&lt;framework&gt;/&lt;v&gt;).
/// </summary>
internal static class RuntimePacks
{
    /// <summary>The .NET 11 release <c>--runtime 11</c> means.</summary>
    public const string Net11 = "11.0.0";

    private static readonly string[] Frameworks = ["Microsoft.NETCore.App", "Microsoft.AspNetCore.App"];

    /// <summary>The exact version a <c>--runtime</c> value names: a major version Async2 knows, or a full version.</summary>
    public static string? VersionFor(string requested) => requested switch
    {
        "11" or "11.0" => Net11,
        _ when System.Text.RegularExpressions.Regex.IsMatch(requested, @"^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$") => requested,
        _ => null,
    };

    /// <summary>The runtime identifier of the runtime packs for this machine.</summary>
    public static string RuntimeIdentifier
    {
        get
        {
            var os = OperatingSystem.IsWindows() ? "win" : OperatingSystem.IsMacOS() ? "osx" : "linux";
            return $"{os}-{RuntimeInformation.OSArchitecture.ToString().ToLowerInvariant()}";
        }
    }

    /// <summary>
    /// The laid-out dotnet root of <paramref name="version"/>, restoring and laying it out first when
    /// the cache does not hold it. Progress goes to <paramref name="log"/>.
    /// </summary>
    /// <exception cref="CliException">the packs could not be restored or laid out.</exception>
    public static RuntimeRoot Ensure(string version, string cacheRoot, TextWriter log)
    {
        var folder = Path.Combine(cacheRoot, "runtimes", $"dotnet-{version}-{RuntimeIdentifier}");
        if (Directory.Exists(folder))
            return new RuntimeRoot(folder, version);

        log.WriteLine($"async2: restoring .NET {version} ({string.Join(", ", Frameworks)}) from its NuGet runtime packs, once, into {folder}");
        var scratch = Path.Combine(cacheRoot, "runtimes", $".building-{Guid.NewGuid():N}");
        try
        {
            var packageFolder = Restore(version, Path.Combine(scratch, "restore"));
            var root = Path.Combine(scratch, "root");
            LayOut(version, packageFolder, root);
            try
            {
                Directory.Move(root, folder);
            }
            catch (IOException) when (Directory.Exists(folder))
            {
                // Another process laid out the same version first; its copy is as good as ours.
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw CliException.Failure($"cannot lay out .NET {version} in {folder}.", e.Message, "set ASYNC2_CACHE to a folder you can write to");
        }
        finally
        {
            if (Directory.Exists(scratch))
                Directory.Delete(scratch, recursive: true);
        }
        return new RuntimeRoot(folder, version);
    }

    /// <summary>Restores the packs with a project of PackageDownload items; returns the NuGet packages folder they went to.</summary>
    private static string Restore(string version, string projectFolder)
    {
        Directory.CreateDirectory(projectFolder);
        // Directory.Build.* and Directory.Packages.props of folders above the cache are not this project's.
        var downloads = string.Concat(Frameworks.Select(framework =>
            $"""    <PackageDownload Include="{PackId(framework)}" Version="[{version}]" />{Environment.NewLine}"""));
        File.WriteAllText(Path.Combine(projectFolder, "runtime-packs.csproj"), $"""
            <Project>
              <PropertyGroup>
                <ImportDirectoryBuildProps>false</ImportDirectoryBuildProps>
                <ImportDirectoryBuildTargets>false</ImportDirectoryBuildTargets>
                <ImportDirectoryPackagesProps>false</ImportDirectoryPackagesProps>
              </PropertyGroup>
              <Import Project="Sdk.props" Sdk="Microsoft.NET.Sdk" />
              <PropertyGroup>
                <TargetFramework>net10.0</TargetFramework>
              </PropertyGroup>
              <ItemGroup>
            {downloads}  </ItemGroup>
              <Import Project="Sdk.targets" Sdk="Microsoft.NET.Sdk" />
            </Project>
            """);
        var (exitCode, output) = ChildProcess.RunCaptured(["restore", "runtime-packs.csproj", "--nologo"], workingDirectory: projectFolder);
        if (exitCode != 0)
        {
            // "path/runtime-packs.csproj : error NU1102: ..." names a scratch project the user never sees.
            var errors = output.Split('\n')
                .Select(line => line.IndexOf("error ", StringComparison.Ordinal) is var at and >= 0 ? line[(at + "error ".Length)..].Trim() : null)
                .OfType<string>().Distinct().Take(3);
            throw CliException.Failure($"cannot restore .NET {version}'s runtime packs ({string.Join(", ", Frameworks.Select(PackId))}) from NuGet.",
                string.Join(" | ", errors.DefaultIfEmpty($"dotnet restore exited with {exitCode}")),
                "check that your NuGet sources serve those packages at that version ('dotnet nuget list source'); offline, restore them once where they are reachable");
        }
        using var assets = JsonDocument.Parse(File.ReadAllText(Path.Combine(projectFolder, "obj", "project.assets.json")));
        return assets.RootElement.GetProperty("packageFolders").EnumerateObject().First().Name;
    }

    private static string PackId(string framework) => $"{framework}.Runtime.{RuntimeIdentifier}";

    private static void LayOut(string version, string packageFolder, string root)
    {
        var host = OperatingSystem.IsWindows() ? "dotnet.exe" : "dotnet";
        var runningHost = SharedFrameworks.SharedFolder is { } shared ? Path.Combine(Path.GetDirectoryName(shared)!, host) : null;
        if (runningHost is null || !File.Exists(runningHost))
            throw CliException.Failure($"cannot lay out .NET {version}: no dotnet host beside the running runtime.",
                $"{runningHost ?? SharedFrameworks.RunningNetCoreApp} is no dotnet installation's (is async2 running self-contained?)", "run async2 with the .NET SDK's dotnet");
        Directory.CreateDirectory(root);
        File.Copy(runningHost, Path.Combine(root, host));

        foreach (var framework in Frameworks)
        {
            var pack = Path.Combine(packageFolder, PackId(framework).ToLowerInvariant(), version.ToLowerInvariant(), "runtimes", RuntimeIdentifier);
            var libraries = Directory.GetDirectories(Path.Combine(pack, "lib")).Single();
            var target = Path.Combine(root, "shared", framework, version);
            CopyFiles(libraries, target);
            var native = Path.Combine(pack, "native");
            if (Directory.Exists(native))
                CopyFiles(native, target);
        }
        // The release's own hostfxr resolves its frameworks, as an installed .NET would.
        var hostfxr = Directory.GetFiles(Path.Combine(root, "shared", Frameworks[0], version), "*hostfxr*").Single();
        var fxr = Path.Combine(root, "host", "fxr", version);
        Directory.CreateDirectory(fxr);
        File.Move(hostfxr, Path.Combine(fxr, Path.GetFileName(hostfxr)));
    }

    private static void CopyFiles(string from, string to)
    {
        Directory.CreateDirectory(to);
        foreach (var file in Directory.EnumerateFiles(from))
            File.Copy(file, Path.Combine(to, Path.GetFileName(file)), overwrite: false);
    }
}
