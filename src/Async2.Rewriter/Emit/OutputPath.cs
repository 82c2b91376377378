namespace Async2.Rewriter.Emit;

/// <summary>
/// Where a rewrite may write, checked before anything is read: the output must name a file (not a
/// folder), its folder must be creatable, and it must not be the input, also not through a
/// symbolic link, since Async2 never overwrites its input.
/// </summary>
internal static class OutputPath
{
    public static void Check(string input, string output)
    {
        if (Path.EndsInDirectorySeparator(output) || Directory.Exists(output))
            throw Diagnostics.FileProblem(DiagnosticCodes.OutputNotWritable, output,
                $"the output path is a folder. Name the rewritten assembly itself: -o {Path.Combine(Path.TrimEndingDirectorySeparator(output), Path.GetFileName(input))}");
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
