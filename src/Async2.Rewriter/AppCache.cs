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
/// run never leaves a half-built entry that looks complete.
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
        List<string> runtimeAsync;
        string key;
        try
        {
            var files = Files(folder, skipped).Order(StringComparer.Ordinal).ToList();
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
        if (Directory.Exists(entry))
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
                    ReferencePaths = [.. rewritten], CopyRuntime = Path.GetDirectoryName(copy) == scratch, Cancellation = cancellation,
                });
                rewritten.Add(copy);
            }
            // The app loads Async2.Runtime from its own folder, where its .deps.json lists it, also
            // when only assemblies in subfolders were rewritten.
            var runtimeInApp = Path.Combine(scratch, ModuleIO.RuntimeFileName);
            if (!File.Exists(runtimeInApp))
                File.Copy(ModuleIO.RuntimeAssemblyPath, runtimeInApp);
            var deps = Path.Combine(scratch, Path.GetFileNameWithoutExtension(appPath) + ".deps.json");
            if (File.Exists(deps))
                DepsFile.AddRuntime(deps, Path.ChangeExtension(appPath, ".deps.json"), ModuleIO.RuntimeVersion);
            cancellation.ThrowIfCancellationRequested();
            try
            {
                Directory.Move(scratch, entry);
            }
            catch (IOException) when (Directory.Exists(entry))
            {
                // Another run built the same entry first; its copy is as good as ours.
            }
        }
        finally
        {
            if (Directory.Exists(scratch))
                Directory.Delete(scratch, recursive: true);
        }
        return appInEntry;
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
        using var file = File.OpenRead(path);
        return Convert.ToHexStringLower(System.Security.Cryptography.SHA256.HashData(file));
    }

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
            File.Copy(file, Path.Combine(to, Path.GetFileName(file)));
        foreach (var directory in Directory.EnumerateDirectories(from).Where(directory => !IsSameFolder(directory, skipped)))
            CopyFolder(directory, Path.Combine(to, Path.GetFileName(directory)), skipped);
    }
}
