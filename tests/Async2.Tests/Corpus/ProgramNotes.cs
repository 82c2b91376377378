namespace Async2.Tests.Corpus;

/// <summary>
/// Reads a list of corpus programs with a note each, in tests/corpus: one <c>program: note</c> per
/// line, # for comments (KNOWN_RUNTIME_DIFFERENCES.txt, KNOWN_RUNTIME_DIFFERENCES_NET11.txt, WASM_LEFT_OUT.txt).
/// </summary>
internal static class ProgramNotes
{
    public static IReadOnlyDictionary<string, string> Read(string fileName)
    {
        var path = Path.Combine(TestEnvironment.CorpusFolder, fileName);
        if (!File.Exists(path))
            return new Dictionary<string, string>();
        return File.ReadAllLines(path)
            .Select(line => line.Trim())
            .Where(line => line.Length > 0 && !line.StartsWith('#'))
            .Select(line => line.Split(':', 2))
            .ToDictionary(parts => parts[0].Trim(), parts => parts.Length > 1 ? parts[1].Trim() : "");
    }
}
