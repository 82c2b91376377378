using System.Text.Json;

namespace Async2.Rewriter;

/// <summary>A shared framework an app names in its runtimeconfig.json, and how far the host may roll its version forward.</summary>
public sealed record FrameworkReference(string Name, string Version, string RollForward);

/// <summary>
/// The shared frameworks of the .NET installation Async2 runs on (<c>&lt;dotnet root&gt;/shared/&lt;name&gt;/&lt;version&gt;</c>),
/// and the choice the host (hostfxr) makes among their installed versions for an app's
/// runtimeconfig.json, so that <c>async2 verify</c> loads an app against the framework files it
/// would run on. The roll-forward rules follow the host's documentation
/// (https://learn.microsoft.com/dotnet/core/versions/selection#framework-dependent-apps-roll-forward);
/// keep them in step with it. <see cref="Emit.ReferenceResolver"/> lists its folders from here too.
/// </summary>
public static class SharedFrameworks
{
    /// <summary>The base framework: the one this process runs on, so never loaded from a folder.</summary>
    public const string NetCoreApp = "Microsoft.NETCore.App";

    /// <summary>The running Microsoft.NETCore.App's folder (<c>shared/Microsoft.NETCore.App/&lt;version&gt;</c>).</summary>
    public static string RunningNetCoreApp => Path.GetDirectoryName(typeof(object).Assembly.Location)!;

    /// <summary>The <c>shared</c> folder of the installation running this process; null when the runtime is not laid out as one (self-contained).</summary>
    public static string? SharedFolder =>
        Path.GetDirectoryName(Path.GetDirectoryName(RunningNetCoreApp)) is { } shared && Directory.Exists(shared) ? shared : null;

    /// <summary>The installed versions of framework <paramref name="name"/>, each with its folder, newest first.</summary>
    public static IReadOnlyList<(string Version, string Folder)> Installed(string name)
    {
        var framework = SharedFolder is { } shared ? Path.Combine(shared, name) : null;
        if (framework is null || !Directory.Exists(framework))
            return [];
        return Directory.EnumerateDirectories(framework)
            .Select(folder => (Version: Path.GetFileName(folder), Folder: folder))
            .Where(installed => Parse(installed.Version) is not null)
            .OrderByDescending(installed => Parse(installed.Version)!.Value.Number)
            .ToList();
    }

    /// <summary>
    /// The frameworks <paramref name="runtimeConfig"/> names (<c>runtimeOptions.framework</c> or
    /// <c>runtimeOptions.frameworks</c>); empty when it names none (a self-contained app's
    /// <c>includedFrameworks</c> are in its own folder).
    /// </summary>
    /// <exception cref="RewriteException">ASYNC2001: the file is not the JSON a runtimeconfig.json is.</exception>
    public static IReadOnlyList<FrameworkReference> NamedBy(string runtimeConfig)
    {
        try
        {
            using var document = JsonDocument.Parse(File.ReadAllText(runtimeConfig),
                new JsonDocumentOptions { CommentHandling = JsonCommentHandling.Skip, AllowTrailingCommas = true });
            if (!document.RootElement.TryGetProperty("runtimeOptions", out var options))
                return [];
            var rollForward = options.TryGetProperty("rollForward", out var policy) ? policy.GetString()! : "Minor";
            var references = new List<JsonElement>();
            if (options.TryGetProperty("framework", out var single))
                references.Add(single);
            if (options.TryGetProperty("frameworks", out var several))
                references.AddRange(several.EnumerateArray());
            return references.Select(framework => new FrameworkReference(
                framework.GetProperty("name").GetString()!,
                framework.GetProperty("version").GetString()!,
                framework.TryGetProperty("rollForward", out var own) ? own.GetString()! : rollForward)).ToList();
        }
        catch (Exception e) when (e is JsonException or InvalidOperationException or KeyNotFoundException or IOException or UnauthorizedAccessException)
        {
            throw Diagnostics.FileProblem(DiagnosticCodes.NotAnAssembly, runtimeConfig,
                $"the app's runtimeconfig.json cannot be read as one ({e.Message}). Fix or delete it, or build the app again to have it written anew.");
        }
    }

    /// <summary>
    /// The folder of the installed version the host would run <paramref name="framework"/> on:
    /// never an older one, nor a prerelease for a release; within that, as its roll-forward policy
    /// says (Minor by default: the newest patch of the version's major.minor, else of the lowest
    /// newer minor of its major). Null when no installed version is acceptable.
    /// </summary>
    public static string? Resolve(FrameworkReference framework) => Choose(framework, Installed(framework.Name));

    /// <summary><see cref="Resolve"/>'s choice among <paramref name="installed"/> versions (with their folders).</summary>
    internal static string? Choose(FrameworkReference framework, IEnumerable<(string Version, string Folder)> installed)
    {
        if (Parse(framework.Version) is not { } requested)
            return null;
        var v = requested.Number;
        var candidates = installed
            .Select(each => (Parsed: Parse(each.Version), each.Folder))
            .Where(each => each.Parsed is { } parsed && parsed.Number >= v && (requested.Prerelease || !parsed.Prerelease))
            .Select(each => new Candidate(each.Parsed!.Value.Number, each.Folder))
            .ToList();
        var sameMinor = candidates.Where(c => c.Number.Major == v.Major && c.Number.Minor == v.Minor);
        var newerMinor = candidates.Where(c => c.Number.Major == v.Major && c.Number.Minor > v.Minor);
        var minor = Newest(sameMinor) ?? NewestPatchOfLowest(newerMinor);
        return framework.RollForward.ToLowerInvariant() switch
        {
            "disable" => candidates.FirstOrDefault(c => c.Number == v)?.Folder,
            "latestpatch" => Newest(sameMinor),
            "latestminor" => Newest(candidates.Where(c => c.Number.Major == v.Major)),
            "major" => minor ?? NewestPatchOfLowest(candidates.Where(c => c.Number.Major > v.Major)),
            "latestmajor" => Newest(candidates),
            _ => minor,
        };
    }

    private sealed record Candidate(Version Number, string Folder);

    private static string? Newest(IEnumerable<Candidate> candidates) => candidates.MaxBy(c => c.Number)?.Folder;

    /// <summary>The newest patch of the lowest major.minor among <paramref name="candidates"/>.</summary>
    private static string? NewestPatchOfLowest(IEnumerable<Candidate> candidates) =>
        candidates.MinBy(c => (c.Number.Major, c.Number.Minor)) is { } lowest
            ? Newest(candidates.Where(c => c.Number.Major == lowest.Number.Major && c.Number.Minor == lowest.Number.Minor))
            : null;

    /// <summary>A framework folder's version: numbers, and whether a prerelease label follows (<c>10.0.0-rc.2.25502.107</c>).</summary>
    private static (Version Number, bool Prerelease)? Parse(string version)
    {
        var dash = version.IndexOf('-');
        var number = dash < 0 ? version : version[..dash];
        return Version.TryParse(number, out var parsed) && parsed.Build >= 0 ? (parsed, dash >= 0) : null;
    }
}
