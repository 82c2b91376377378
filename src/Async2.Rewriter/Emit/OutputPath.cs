namespace Async2.Rewriter.Emit;

/// <summary>
/// Where a rewrite may write, checked before anything is read: the output must name a file (not a
/// folder or a device), its folder must be creatable, and neither it nor the files written beside
/// it (its .pdb, .deps.json and the copy of Async2.Runtime.dll, named as ModuleIO writes them) may
/// be one of the input's own files, also not through a symbolic link, since Async2 never
/// overwrites its input. <c>async2 inspect --html</c> checks its report's path the same way.
/// </summary>
public static class OutputPath
{
    internal static void Check(string input, string output, bool copyRuntime)
    {
        if (Path.EndsInDirectorySeparator(output) || Directory.Exists(output))
        {
            // The input's own folder cannot take an assembly of the input's name: suggest a folder in it.
            var folder = Path.TrimEndingDirectorySeparator(output);
            var suggested = Path.Combine(folder, Path.GetFileName(input));
            if (InputFileAt(input, suggested) is not null)
                suggested = Path.Combine(folder, "rewritten", Path.GetFileName(input));
            throw Diagnostics.FileProblem(DiagnosticCodes.OutputNotWritable, output, $"the output path is a folder. Name the rewritten assembly itself: -o {suggested}");
        }
        for (var folder = Path.GetDirectoryName(output); folder is not null; folder = Path.GetDirectoryName(folder))
        {
            if (File.Exists(folder))
                throw Diagnostics.FileProblem(DiagnosticCodes.OutputNotWritable, output, $"'{folder}' is a file, so no folder can be created there. Choose another output path (-o).");
            if (Directory.Exists(folder))
                break;
        }
        if (string.Equals(RealPath(input), RealPath(output), StringComparison.Ordinal))
            throw Diagnostics.FileProblem(DiagnosticCodes.OutputIsInput, input,
                "the output path is the input path" + (string.Equals(input, output, StringComparison.Ordinal) ? "" : " (through a symbolic link)")
                + "; Async2 never overwrites its input. Choose another output path (-o).");
        if (IsDevice(output))
            throw Diagnostics.FileProblem(DiagnosticCodes.OutputNotWritable, output, DeviceReason + " Choose another output path (-o).");

        (string What, string At)[] written =
        [
            ("symbols", Path.ChangeExtension(output, ".pdb")),
            ("dependency list", Path.ChangeExtension(output, ".deps.json")),
            .. copyRuntime ? [("copy of Async2.Runtime.dll", Path.Combine(Path.GetDirectoryName(output)!, ModuleIO.RuntimeFileName))] : Array.Empty<(string, string)>(),
        ];
        foreach (var (what, path) in written.Prepend(("assembly", output)))
            if (InputFileAt(input, path) is { } inputFile)
                throw Diagnostics.FileProblem(DiagnosticCodes.OutputIsInput, input,
                    $"the rewritten {what} would be written to '{path}', which is the input's {inputFile}; Async2 never overwrites its input. "
                    + "Choose another output path (-o), in another folder or under another name.");
        var realOutput = RealPath(output);
        foreach (var (what, path) in written)
            if (string.Equals(RealPath(path), realOutput, StringComparison.Ordinal))
                throw Diagnostics.FileProblem(DiagnosticCodes.OutputNotWritable, output,
                    $"the rewrite writes its {what} beside the assembly under this very name. Name the rewritten assembly as the compiler does, App.dll (-o).");
    }

    /// <summary>Why a device cannot take what Async2 writes, for the messages.</summary>
    public const string DeviceReason =
        "it is a device, not a file: Async2 puts a finished file in place by renaming it over the old one, which would replace the device itself.";

    /// <summary>
    /// Whether <paramref name="path"/> names a device: on Unix anything under /dev but the shared
    /// memory folder /dev/shm, on Windows a \\.\ path (what NUL and CON become).
    /// </summary>
    public static bool IsDevice(string path)
    {
        var full = Path.GetFullPath(path);
        if (OperatingSystem.IsWindows())
            return full.StartsWith(@"\\.\", StringComparison.Ordinal);
        static bool UnderDev(string p) => p.StartsWith("/dev/", StringComparison.Ordinal) && !p.StartsWith("/dev/shm/", StringComparison.Ordinal);
        return UnderDev(full) || UnderDev(RealPath(full));
    }

    /// <summary>
    /// Which of <paramref name="input"/>'s own files <paramref name="path"/> is, also through a
    /// symbolic link: "assembly", "symbols (.pdb)" or "dependency list (.deps.json)"; null if none.
    /// </summary>
    public static string? InputFileAt(string input, string path)
    {
        var real = RealPath(path);
        (string What, string At)[] inputFiles =
        [
            ("assembly", input),
            ("symbols (.pdb)", Path.ChangeExtension(input, ".pdb")),
            ("dependency list (.deps.json)", Path.ChangeExtension(input, ".deps.json")),
        ];
        return inputFiles.FirstOrDefault(file => string.Equals(RealPath(file.At), real, StringComparison.Ordinal)).What;
    }

    /// <summary>Turns a failure to write the output into a diagnostic (nothing of the output is left behind).</summary>
    public static RewriteException WriteFailed(string output, Exception exception) =>
        Diagnostics.FileProblem(DiagnosticCodes.OutputNotWritable, output, $"it could not be written: {exception.Message} Choose a folder you can write to (-o).");

    /// <summary><paramref name="path"/> made absolute with every symbolic link along it resolved.</summary>
    private static string RealPath(string path)
    {
        var full = Path.GetFullPath(path);
        var root = Path.GetPathRoot(full)!;
        var current = root;
        foreach (var part in full[root.Length..].Split(Path.DirectorySeparatorChar, StringSplitOptions.RemoveEmptyEntries))
        {
            current = Path.Combine(current, part);
            if (LinkTarget(current) is { } target)
                current = RealPath(target);
        }
        return current;
    }

    /// <summary>Where the link at <paramref name="path"/> finally points; null if it is not a link (or a broken or cyclic one).</summary>
    private static string? LinkTarget(string path)
    {
        var entry = new FileInfo(path);
        if (entry.LinkTarget is null)
            return null;
        try
        {
            return entry.ResolveLinkTarget(returnFinalTarget: true)?.FullName;
        }
        catch (IOException)
        {
            return null;
        }
    }

}
