using System.Text.Json;
using System.Text.Json.Nodes;

namespace Async2.Rewriter.Emit;

/// <summary>
/// Lists Async2.Runtime in an app's .deps.json. When an app has one, the .NET host resolves only
/// the assemblies listed there, so a rewritten app would not find the runtime library beside it.
/// </summary>
internal static class DepsFile
{
    private const string Library = "Async2.Runtime";

    /// <summary>
    /// Adds the runtime library to <paramref name="path"/> (atomically) unless it is already listed;
    /// <paramref name="input"/> is the file it was copied from, which problems name.
    /// </summary>
    public static void AddRuntime(string path, string input, Version runtimeVersion)
    {
        JsonNode? root;
        try
        {
            root = JsonNode.Parse(File.ReadAllText(path));
        }
        catch (JsonException e)
        {
            throw Diagnostics.FileProblem(DiagnosticCodes.NotAnAssembly, input,
                $"this .deps.json is not valid JSON ({e.Message}); fix or delete it so the app can find Async2.Runtime.dll.");
        }
        if (root is not JsonObject document)
            throw Diagnostics.FileProblem(DiagnosticCodes.NotAnAssembly, input,
                "this .deps.json is not a JSON object, as the .NET host reads one; fix or delete it so the app can find Async2.Runtime.dll.");
        if (document["targets"] is not JsonObject targets || document["libraries"] is not JsonObject libraries)
            return;

        var key = $"{Library}/{runtimeVersion.ToString(3)}";
        bool changed = false;
        foreach (var (_, target) in targets)
        {
            if (target is not JsonObject entries || entries.Any(e => e.Key.StartsWith(Library + "/", StringComparison.Ordinal)))
                continue;
            entries[key] = new JsonObject { ["runtime"] = new JsonObject { [$"{Library}.dll"] = new JsonObject() } };
            changed = true;
        }
        if (!libraries.Any(e => e.Key.StartsWith(Library + "/", StringComparison.Ordinal)))
        {
            libraries[key] = new JsonObject { ["type"] = "project", ["serviceable"] = false, ["sha512"] = "" };
            changed = true;
        }
        if (!changed)
            return;

        var scratch = path + $".async2-{Guid.NewGuid():N}";
        File.WriteAllText(scratch, document.ToJsonString(new JsonSerializerOptions { WriteIndented = true }));
        File.Move(scratch, path, overwrite: true);
    }
}
