using System.Globalization;
using Async2.Rewriter.Analysis;
using Async2.Rewriter.Emit;

namespace Async2.Rewriter;

/// <summary>
/// Rewritten copies of apps, for <c>async2 run</c>. An app folder is copied into the cache and its
/// runtime-async assemblies, in subfolders too (a NuGet package's <c>runtimes/&lt;rid&gt;/lib/</c>),
/// are rewritten there; the entry is named after every file of the folder (its path and a hash of
/// its contents: a rebuild may change only a classic library, a content file or
/// runtimeconfig.json, and sizes and times written repeat, in extracted archives and reproducible
/// builds) and Async2's own build, so any change gets a new entry and an unchanged app reuses its
/// entry. Entries are built in a scratch folder and renamed into place, so a crash or a concurrent
/// run never leaves a half-built entry that looks complete; an entry lists its files' sizes, so one
/// damaged since is built again. RunCommand's help and the README describe this: keep them in sync.
/// </summary>
public static class AppCache
{
    /// <summary>
    /// Returns the path of the app's main assembly to run: <paramref name="appPath"/> itself when
    /// its folder has no runtime-async assembly, otherwise the rewritten copy in the cache.
    /// Canceled, it leaves no entry and no scratch folder.
    /// </summary>
    public static string Prepare(string appPath, string cacheRoot, CancellationToken cancellation = default)
    {
        var folder = Path.GetDirectoryName(appPath)!;
        // A cache kept inside the app folder is neither part of the app nor copied with it.
        var skipped = Path.GetFullPath(cacheRoot);
        List<string> files, runtimeAsync;
        string key;
        try
        {
            files = Files(folder, skipped).Order(StringComparer.Ordinal).ToList();
            runtimeAsync = files
                .Where(path => path.EndsWith(".dll", StringComparison.OrdinalIgnoreCase) && AssemblyFile.RuntimeAsyncMvid(path) is not null)
                .ToList();
            if (runtimeAsync.Count == 0)
                return appPath;
            key = string.Join("|", files.Select(path => $"{Path.GetRelativePath(folder, path)}:{ContentHash(path)}").Append(ToolIdentity()));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // Not the cache's fault: say so, rather than let it read as a cache that cannot be written.
            throw Diagnostics.FileProblem(DiagnosticCodes.NotAnAssembly, folder,
                $"run copies the app's whole folder, and something in it cannot be read ({e.Message.TrimEnd('.')}). Remove or repair it (a link leading nowhere, say), or run the app from a folder without it.");
        }
        var hash = Convert.ToHexStringLower(System.Security.Cryptography.SHA256.HashData(System.Text.Encoding.UTF8.GetBytes(key)))[..16];
        var entry = Path.Combine(cacheRoot, $"{Path.GetFileNameWithoutExtension(appPath)}-{hash}");
        var appInEntry = Path.Combine(entry, Path.GetFileName(appPath));
        if (Directory.Exists(entry) && IsWhole(entry))
            return appInEntry;

        Directory.CreateDirectory(cacheRoot);
        var scratch = Path.Combine(cacheRoot, $".building-{Guid.NewGuid():N}");
        try
        {
            CopyFolder(folder, scratch, skipped);
            // Callees first, each caller resolving them from the scratch folder: a caller calls the
            // variants of a callee it sees rewritten directly (docs/design.md, "Calls across assemblies").
            var rewritten = new List<string>();
            foreach (var path in CalleesFirst(runtimeAsync))
            {
                var copy = Path.Combine(scratch, Path.GetRelativePath(folder, path));
                AssemblyRewriter.Rewrite(new RewriteRequest(path, copy)
                {
                    ReferencePaths = [.. rewritten], CopyRuntime = false, Cancellation = cancellation,
                });
                rewritten.Add(copy);
            }
            // The app loads Async2.Runtime from its own folder, where its .deps.json lists it, also
            // when only assemblies in subfolders were rewritten.
            File.Copy(RuntimeForApp(folder, files), Path.Combine(scratch, ModuleIO.RuntimeFileName), overwrite: true);
            var deps = Path.Combine(scratch, Path.GetFileNameWithoutExtension(appPath) + ".deps.json");
            if (File.Exists(deps))
                DepsFile.AddRuntime(deps, Path.ChangeExtension(appPath, ".deps.json"), ModuleIO.RuntimeVersion);
            WriteManifest(scratch);
            cancellation.ThrowIfCancellationRequested();
            PutInPlace(scratch, entry, cacheRoot);
        }
        finally
        {
            if (Directory.Exists(scratch))
                Directory.Delete(scratch, recursive: true);
        }
        return appInEntry;
    }

    /// <summary>
    /// Moves a built entry into place. Another run may have built the same entry first (its copy is
    /// as good as ours), or the entry there may be damaged, which is set aside and replaced.
    /// </summary>
    private static void PutInPlace(string scratch, string entry, string cacheRoot)
    {
        try
        {
            Directory.Move(scratch, entry);
            return;
        }
        catch (IOException) when (Directory.Exists(entry))
        {
            if (IsWhole(entry))
                return;
        }
        var aside = Path.Combine(cacheRoot, $".damaged-{Guid.NewGuid():N}");
        try
        {
            Directory.Move(entry, aside);
            Directory.Move(scratch, entry);
        }
        catch (IOException) when (Directory.Exists(entry) && IsWhole(entry))
        {
            // Another run replaced it first.
        }
        finally
        {
            if (Directory.Exists(aside))
                Directory.Delete(aside, recursive: true);
        }
    }

    /// <summary>
    /// Lists every file of a built entry with its size, so that a later run notices an entry that
    /// lost a file or had one cut short since (a cleaner of old files, a full disk, a hand) and
    /// builds it again rather than run an app with a resource or a library missing.
    /// </summary>
    private static void WriteManifest(string built)
    {
        var lines = Files(built, skipped: "").Select(path => string.Create(CultureInfo.InvariantCulture, $"{new FileInfo(path).Length}\t{Path.GetRelativePath(built, path)}")).ToList();
        File.WriteAllLines(Path.Combine(built, ManifestName), lines);
    }

    private const string ManifestName = ".async2-entry";

    /// <summary>Whether every file the entry's manifest lists is there with its size (false without a manifest).</summary>
    private static bool IsWhole(string entry)
    {
        var manifest = Path.Combine(entry, ManifestName);
        if (!File.Exists(manifest))
            return false;
        foreach (var line in File.ReadLines(manifest))
        {
            if (line.IndexOf('\t') is not (> 0 and var tab))
                return false;
            var file = new FileInfo(Path.Combine(entry, line[(tab + 1)..]));
            if (!file.Exists || file.Length.ToString(CultureInfo.InvariantCulture) != line[..tab])
                return false;
        }
        return true;
    }

    /// <summary>
    /// The Async2.Runtime.dll the rewritten app gets: this version's, which the assemblies just
    /// rewritten need, unless the app carries a later build of it (built with a later Async2.Build),
    /// which runs them as well, a contract keeping its runtime's members. Assemblies of the app
    /// rewritten under another contract cannot run with this version's runtime, nor the ones just
    /// rewritten with theirs: an error names them.
    /// </summary>
    private static string RuntimeForApp(string folder, IReadOnlyList<string> files)
    {
        var mismatched = files
            .Where(path => path.EndsWith(".dll", StringComparison.OrdinalIgnoreCase)
                && AssemblyFile.ReferencedAssemblies(path).Contains(RuntimeNames.RuntimeAssembly, StringComparer.Ordinal))
            .Select(path => OtherAsync2Versions.OfAppAssembly(path, Path.GetRelativePath(folder, path)))
            .OfType<Diagnostic>()
            .ToList();
        if (mismatched.Count > 0)
            throw new RewriteException(mismatched);
        var appsOwn = Path.Combine(folder, ModuleIO.RuntimeFileName);
        return File.Exists(appsOwn) && AssemblyFile.AssemblyVersion(appsOwn) > ModuleIO.RuntimeVersion ? appsOwn : ModuleIO.RuntimeAssemblyPath;
    }

    /// <summary>
    /// <paramref name="assemblies"/> ordered so that each comes after those it references (a
    /// reference cycle, which compilers do not produce, is broken by path order).
    /// </summary>
    private static List<string> CalleesFirst(IReadOnlyList<string> assemblies)
    {
        // One name may be several files: a package's copies for each runtime identifier (runtimes/<rid>/lib/).
        var byName = assemblies.ToLookup(path => Path.GetFileNameWithoutExtension(path), StringComparer.OrdinalIgnoreCase);
        var ordered = new List<string>();
        var visited = new HashSet<string>(StringComparer.Ordinal);
        void Visit(string path)
        {
            if (!visited.Add(path))
                return;
            foreach (var name in AssemblyFile.ReferencedAssemblies(path))
                foreach (var callee in byName[name])
                    Visit(callee);
            ordered.Add(path);
        }
        foreach (var path in assemblies)
            Visit(path);
        return ordered;
    }

    /// <summary>A hash of the file's contents (a link's target's).</summary>
    private static string ContentHash(string path)
    {
        if (IsEmpty(path))
            return EmptyContentHash;
        using var file = File.OpenRead(path);
        return Convert.ToHexStringLower(System.Security.Cryptography.SHA256.HashData(file));
    }

    private static readonly string EmptyContentHash = Convert.ToHexStringLower(System.Security.Cryptography.SHA256.HashData([]));

    /// <summary>
    /// Whether the file has no contents, so that neither its hash nor its copy opens it: a FIFO or
    /// a socket in the app folder has none either, and .NET cannot tell them from a file (opening a
    /// FIFO waits for a writer, for ever). They are copied as empty files.
    /// </summary>
    private static bool IsEmpty(string path) => new FileInfo(path).Length == 0;

    private static IEnumerable<string> Files(string folder, string skipped) =>
        Directory.EnumerateFiles(folder).Concat(Directory.EnumerateDirectories(folder)
            .Where(directory => !IsSameFolder(directory, skipped))
            .SelectMany(directory => Files(directory, skipped)));

    private static bool IsSameFolder(string a, string b) =>
        string.Equals(Path.TrimEndingDirectorySeparator(Path.GetFullPath(a)), Path.TrimEndingDirectorySeparator(b), StringComparison.Ordinal);

    private static string ToolIdentity() =>
        string.Join("|", new[] { typeof(AppCache).Assembly, typeof(Async2.Runtime.Continuation).Assembly }
            .Select(a => a.ManifestModule.ModuleVersionId));

    private static void CopyFolder(string from, string to, string skipped)
    {
        Directory.CreateDirectory(to);
        foreach (var file in Directory.EnumerateFiles(from))
        {
            var copy = Path.Combine(to, Path.GetFileName(file));
            if (!IsEmpty(file))
                File.Copy(file, copy);
            else
            {
                File.Create(copy).Dispose();
                if (!OperatingSystem.IsWindows())
                    File.SetUnixFileMode(copy, File.GetUnixFileMode(file));
            }
        }
        foreach (var directory in Directory.EnumerateDirectories(from).Where(directory => !IsSameFolder(directory, skipped)))
            CopyFolder(directory, Path.Combine(to, Path.GetFileName(directory)), skipped);
    }
}
