using System.Diagnostics;

namespace Async2.Rewriter.Emit;

/// <summary>
/// Tells an exception Cecil threw while decoding the input (its metadata, signatures, IL or
/// symbols) from one of the rewriter's own, so that a damaged input is reported as such (ASYNC2001)
/// and not as a bug in Async2 (ASYNC2900) or a stack trace. Cecil decodes method bodies, member
/// references and symbols when they are first used, so such an exception can come from any phase
/// after loading, the write included. Cecil says nothing of what it could not decode (its exceptions
/// are IndexOutOfRange, NotSupported, NotImplemented, NullReference and the like), so the place it
/// was thrown from is what tells: a reader of Cecil's, with only Cecil and the BCL above it.
/// </summary>
internal static class DamagedInput
{
    /// <summary>Whether <paramref name="e"/> was thrown by Cecil decoding the input.</summary>
    public static bool IsReadFailure(Exception e) => FailedReader(e) is not null;

    /// <summary>The ASYNC2001 diagnostic for <paramref name="path"/>, whose decoding ended in <paramref name="e"/>.</summary>
    public static RewriteException Problem(string path, Exception e)
    {
        var reader = FailedReader(e);
        var what = reader is not null && (reader.Contains("Pdb", StringComparison.Ordinal) || reader.Contains("Symbol", StringComparison.Ordinal))
            ? "its debug symbols are damaged"
            : "it is damaged";
        return Diagnostics.FileProblem(DiagnosticCodes.NotAnAssembly, path,
            $"{what} and cannot be read: Cecil, which reads it, stopped with {e.GetType().Name} ({e.Message}) in {reader ?? "its reader"}. "
            + "Rebuild it or copy it again; if a fresh build fails the same way, please report it with the assembly.");
    }

    /// <summary>The Cecil reader method <paramref name="e"/> left, or null if the rewriter's own code threw it.</summary>
    private static string? FailedReader(Exception e)
    {
        foreach (var frame in new StackTrace(e).GetFrames())
        {
            var method = frame.GetMethod();
            var type = method?.DeclaringType;
            while (type?.DeclaringType is not null)
                type = type.DeclaringType;
            var space = type?.Namespace ?? "";
            if (space.StartsWith("Mono.Cecil", StringComparison.Ordinal))
            {
                if (type!.Name.Contains("Reader", StringComparison.Ordinal) || type.Name == "ByteBuffer")
                    return $"{type.Name}.{method!.Name}";
                continue;
            }
            // The BCL's frames: its collections and throw helpers (Internal.Runtime.*, in CoreLib).
            if (type is not null && type.Assembly != typeof(object).Assembly && !space.StartsWith("System", StringComparison.Ordinal))
                return null;
        }
        return null;
    }
}
