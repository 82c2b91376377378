namespace Async2.Tests.Corpus;

/// <summary>One assembly of a multi-assembly test program, as its manifest line declares it.</summary>
/// <param name="RuntimeAsync">Compiled runtime-async in the runtime-async flavour (and so rewritten for run (c)); false: classic in every flavour, never rewritten.</param>
/// <param name="ReplacedByClassic">Rewritten with the others, then replaced by its classic build before run (c), as when a library is updated after the app was rewritten.</param>
/// <param name="SourceFolder">The folder of its sources: the program's own, or that of the program named by a <c>sources-from</c> line.</param>
internal sealed record AssemblySpec(string Name, bool IsExe, bool RuntimeAsync, bool ReplacedByClassic, string SourceFolder);

/// <summary>
/// Builds the multi-assembly programs of tests/corpus-multi: one folder per program holding
/// <c>assemblies.txt</c> (one <c>name library|exe runtime-async|classic [replaced-by-classic]</c> line
/// per assembly, in build order) and one source folder per assembly. Each assembly references all those above it.
/// A line <c>sources-from &lt;program&gt;</c> takes the source folders of another program, so that a
/// variant of a program (built or run differently) does not repeat its sources.
/// A flavour is laid out as an app folder (every assembly side by side), the way a user's build
/// output looks, so that run (c) can rewrite it with <c>AppCache.Prepare</c> as <c>async2 run</c> does.
/// </summary>
internal static class MultiAssemblyBuilder
{
    public static string ProgramsFolder => Path.Combine(TestEnvironment.RepositoryRoot, "tests", "corpus-multi");

    public static IReadOnlyList<AssemblySpec> Manifest(string program)
    {
        var specs = new List<AssemblySpec>();
        var sources = Path.Combine(ProgramsFolder, program);
        foreach (var line in File.ReadAllLines(Path.Combine(ProgramsFolder, program, "assemblies.txt")))
        {
            var text = line.Trim();
            if (text.Length == 0 || text.StartsWith('#'))
                continue;
            var parts = text.Split(' ', StringSplitOptions.RemoveEmptyEntries);
            if (parts is ["sources-from", var other])
            {
                sources = Path.Combine(ProgramsFolder, other);
                continue;
            }
            if (parts.Length is not (3 or 4) || parts[1] is not ("library" or "exe") || parts[2] is not ("runtime-async" or "classic")
                || (parts.Length == 4 && (parts[3] != "replaced-by-classic" || parts[2] != "runtime-async")))
                throw new InvalidDataException($"{program}/assemblies.txt: '{text}' is not '<name> library|exe runtime-async|classic', or 'runtime-async replaced-by-classic'");
            specs.Add(new AssemblySpec(parts[0], parts[1] == "exe", parts[2] == "runtime-async", ReplacedByClassic: parts.Length == 4, Path.Combine(sources, parts[0])));
        }
        if (specs.Count(s => s.IsExe) != 1 || !specs[^1].IsExe)
            throw new InvalidDataException($"{program}/assemblies.txt must end with its one exe");
        return specs;
    }

    /// <summary>
    /// Compiles every assembly of <paramref name="program"/> in one flavour and returns the path of
    /// the exe in an app folder holding them all. In the classic flavour everything is compiled classic.
    /// </summary>
    public static string BuildApp(string program, bool runtimeAsyncFlavour)
    {
        var compiled = new List<string>();
        foreach (var spec in Manifest(program))
        {
            var sources = Directory.GetFiles(spec.SourceFolder, "*.cs", SearchOption.AllDirectories)
                .Order(StringComparer.Ordinal).ToList();
            compiled.Add(ProgramBuilder.Compile(spec.Name, sources, runtimeAsyncFlavour && spec.RuntimeAsync, compiled, library: !spec.IsExe));
        }

        // Compilations are keyed by content, so their paths name this exact set of assemblies.
        var key = ProgramBuilder.Hash(string.Join("\n", compiled));
        var app = Path.Combine(TestEnvironment.Scratch, "multi", $"{program}-{key}", runtimeAsyncFlavour ? "runtime-async" : "classic");
        var exe = Path.Combine(app, Path.GetFileName(compiled[^1]));
        if (Directory.Exists(app))
            return exe;

        var scratch = app + $".tmp-{Guid.NewGuid():N}";
        Directory.CreateDirectory(scratch);
        foreach (var assembly in compiled)
            foreach (var file in new[] { assembly, Path.ChangeExtension(assembly, ".pdb"), ProgramBuilder.RuntimeConfigOf(assembly) })
                if (File.Exists(file))
                    File.Copy(file, Path.Combine(scratch, Path.GetFileName(file)));
        try
        {
            Directory.Move(scratch, app);
        }
        catch (IOException) when (Directory.Exists(app))
        {
            Directory.Delete(scratch, recursive: true); // laid out concurrently by another test run
        }
        return exe;
    }

    /// <summary>
    /// The rewritten app <paramref name="rewritten"/> as run (c) runs it: when an assembly is
    /// <see cref="AssemblySpec.ReplacedByClassic"/>, a copy of the app folder with that assembly's
    /// classic build (from <paramref name="classic"/>'s folder) in place of its rewritten one.
    /// </summary>
    public static string WithReplacements(string program, string rewritten, string classic)
    {
        var replaced = Manifest(program).Where(s => s.ReplacedByClassic).ToList();
        if (replaced.Count == 0)
            return rewritten;
        var folder = Path.GetDirectoryName(rewritten)! + "-replaced";
        if (Directory.Exists(folder))
            Directory.Delete(folder, recursive: true);
        Directory.CreateDirectory(folder);
        foreach (var file in Directory.GetFiles(Path.GetDirectoryName(rewritten)!))
            File.Copy(file, Path.Combine(folder, Path.GetFileName(file)));
        foreach (var spec in replaced)
            foreach (var extension in new[] { ".dll", ".pdb" })
                File.Copy(Path.Combine(Path.GetDirectoryName(classic)!, spec.Name + extension), Path.Combine(folder, spec.Name + extension), overwrite: true);
        return Path.Combine(folder, Path.GetFileName(rewritten));
    }
}
