using Mono.Cecil;
using Mono.Cecil.Cil;

namespace Async2.Rewriter.Emit;

/// <summary>A module read for rewriting, with the runtime library's module beside it.</summary>
internal sealed class LoadedModule(ModuleDefinition module, ModuleDefinition runtime, bool hasSymbols) : IDisposable
{
    public ModuleDefinition Module { get; } = module;
    public ModuleDefinition Runtime { get; } = runtime;
    public bool HasSymbols { get; } = hasSymbols;

    public void Dispose()
    {
        Module.Dispose();
        Runtime.Dispose();
    }
}

/// <summary>
/// Reading and writing assemblies. Input is read fully into memory and never written to; output
/// is written into a scratch folder beside its destination and moved into place file by file, so
/// a failure never leaves a half-written assembly where the output should be.
/// </summary>
internal static class ModuleIO
{
    private static readonly string RuntimeAssemblyPath = typeof(Async2.Runtime.Continuation).Assembly.Location;

    /// <summary>The version of the Async2.Runtime.dll copied beside every output.</summary>
    public static Version RuntimeVersion => typeof(Async2.Runtime.Continuation).Assembly.GetName().Version!;

    public static LoadedModule Load(string path)
    {
        if (!File.Exists(path))
            throw Fail(path, $"the file does not exist. Pass the path of a .NET assembly (.dll) compiled with runtime-async=on.");

        var resolver = new DefaultAssemblyResolver();
        resolver.AddSearchDirectory(Path.GetDirectoryName(path)!);
        resolver.AddSearchDirectory(Path.GetDirectoryName(typeof(object).Assembly.Location)!);
        bool hasSymbols = File.Exists(Path.ChangeExtension(path, ".pdb"));
        try
        {
            var module = ModuleDefinition.ReadModule(path, new ReaderParameters
            {
                AssemblyResolver = resolver,
                ReadingMode = ReadingMode.Immediate,
                InMemory = true,
                ReadSymbols = hasSymbols,
            });
            var runtime = ModuleDefinition.ReadModule(RuntimeAssemblyPath, new ReaderParameters { InMemory = true });
            return new LoadedModule(module, runtime, hasSymbols);
        }
        catch (BadImageFormatException e)
        {
            throw Fail(path, $"it is not a .NET assembly ({e.Message}). Pass a managed .dll.");
        }
        catch (SymbolsNotMatchingException)
        {
            throw Fail(path, "its .pdb does not belong to it (the build is stale?). Rebuild, or remove the .pdb.");
        }
    }

    public static void Write(LoadedModule loaded, string outputPath)
    {
        var directory = Path.GetDirectoryName(outputPath)!;
        Directory.CreateDirectory(directory);
        var scratch = Directory.CreateDirectory(Path.Combine(directory, $".async2-{Guid.NewGuid():N}"));
        try
        {
            var name = Path.GetFileName(outputPath);
            var assembly = Path.Combine(scratch.FullName, name);
            var parameters = new WriterParameters();
            if (loaded.HasSymbols)
            {
                parameters.WriteSymbols = true;
                parameters.SymbolWriterProvider = new PortablePdbWriterProvider();
            }
            loaded.Module.Write(assembly, parameters);

            var runtimeCopy = Path.Combine(scratch.FullName, Path.GetFileName(RuntimeAssemblyPath));
            File.Copy(RuntimeAssemblyPath, runtimeCopy);
            MoveIntoPlace(runtimeCopy, directory);
            var pdb = Path.ChangeExtension(assembly, ".pdb");
            if (File.Exists(pdb))
                MoveIntoPlace(pdb, directory);
            MoveIntoPlace(assembly, directory);
        }
        finally
        {
            scratch.Delete(recursive: true);
        }
    }

    private static void MoveIntoPlace(string file, string directory) =>
        File.Move(file, Path.Combine(directory, Path.GetFileName(file)), overwrite: true);

    private static RewriteException Fail(string path, string message) =>
        new([new Diagnostic(DiagnosticCodes.NotAnAssembly, path, null, null, message)]);
}
