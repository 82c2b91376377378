using System.Security.Cryptography;
using Mono.Cecil;
using Mono.Cecil.Cil;

namespace Async2.Rewriter.Emit;

/// <summary>Where a module's debug symbols are: none, a portable .pdb beside it, or embedded in it.</summary>
internal enum SymbolsLocation
{
    None,
    File,
    Embedded,
}

/// <summary>A module read for rewriting, with the runtime library's module beside it.</summary>
internal sealed class LoadedModule(ModuleDefinition module, ModuleDefinition runtime, SymbolsLocation symbols, IDisposable resolver) : IDisposable
{
    public ModuleDefinition Module { get; } = module;
    public ModuleDefinition Runtime { get; } = runtime;
    public SymbolsLocation Symbols { get; } = symbols;

    public void Dispose()
    {
        Module.Dispose();
        Runtime.Dispose();
        resolver.Dispose();
    }
}

/// <summary>
/// Reading and writing assemblies. Input is read fully into memory and never written to; output
/// is written into a scratch folder beside its destination and moved into place file by file, so
/// a failure never leaves a half-written assembly where the output should be.
/// </summary>
internal static class ModuleIO
{
    internal static readonly string RuntimeAssemblyPath = typeof(Async2.Runtime.Continuation).Assembly.Location;

    /// <summary>The name of the Async2.Runtime.dll copied beside an output (OutputPath checks it takes no other file's place).</summary>
    internal static string RuntimeFileName => Path.GetFileName(RuntimeAssemblyPath);

    /// <summary>The version of the Async2.Runtime.dll copied beside every output.</summary>
    public static Version RuntimeVersion => typeof(Async2.Runtime.Continuation).Assembly.GetName().Version!;

    public static LoadedModule Load(string path, IReadOnlyList<string> referencePaths)
    {
        if (AssemblyFile.WhyNotAnInput(path) is { } why)
            throw Diagnostics.FileProblem(DiagnosticCodes.NotAnAssembly, path, why);
        if (AssemblyFile.WhyItsPdbCannotBeRead(path) is { } whyNotSymbols)
            throw Diagnostics.FileProblem(DiagnosticCodes.NotAnAssembly, path, whyNotSymbols);
        if (DamagedSignatures.Find(path) is { } damage)
            throw Diagnostics.FileProblem(DiagnosticCodes.NotAnAssembly, path, $"it is damaged: {damage}. Rebuild it or copy it again.");
        var resolver = new ReferenceResolver(path, referencePaths);
        try
        {
            // Symbols embedded in the assembly win over a .pdb beside it, as they do for the runtime.
            var module = ModuleDefinition.ReadModule(path, new ReaderParameters
            {
                AssemblyResolver = resolver,
                ReadingMode = ReadingMode.Immediate,
                InMemory = true,
                ReadSymbols = true,
                SymbolReaderProvider = new DefaultSymbolReaderProvider(throwIfNoSymbol: false),
            });
            DropReadyToRunCode(module, path);
            if (AttributeWithoutConstructor(module) is { } owner)
                throw Diagnostics.FileProblem(DiagnosticCodes.NotAnAssembly, path,
                    $"it is damaged: a custom attribute of {owner} names no constructor (its metadata does not hold together). Rebuild it or copy it again.");
            if (InstructionNamingNothing(module) is { } instruction)
                throw Diagnostics.FileProblem(DiagnosticCodes.NotAnAssembly, path,
                    $"it is damaged: {instruction} names nothing (a token or branch target outside the assembly or the method). Rebuild it or copy it again.");
            var symbols = module.SymbolReader switch
            {
                null => SymbolsLocation.None,
                EmbeddedPortablePdbReader => SymbolsLocation.Embedded,
                _ => SymbolsLocation.File,
            };
            var runtime = ModuleDefinition.ReadModule(RuntimeAssemblyPath, new ReaderParameters { InMemory = true });
            return new LoadedModule(module, runtime, symbols, resolver);
        }
        catch (BadImageFormatException e)
        {
            throw Diagnostics.FileProblem(DiagnosticCodes.NotAnAssembly, path, $"it is not a .NET assembly ({e.Message}). Pass a managed .dll.");
        }
        // Cecil throws it from its reader, so it must be caught before the damage it is not.
        catch (SymbolsNotMatchingException)
        {
            throw Diagnostics.FileProblem(DiagnosticCodes.NotAnAssembly, path, "its .pdb does not belong to it (the build is stale?). Rebuild, or remove the .pdb.");
        }
        catch (Exception e) when (e is IndexOutOfRangeException or ArgumentOutOfRangeException or EndOfStreamException || DamagedInput.IsReadFailure(e))
        {
            // Damage the headers do not show (AssemblyFile.WhyNotAnInput checked those).
            throw DamagedInput.Problem(path, e);
        }
        catch (AssemblyResolutionException e)
        {
            // Reading decodes every custom attribute, and an enum argument needs its enum's assembly.
            var missing = e.AssemblyReference.Name;
            throw Diagnostics.FileProblem(DiagnosticCodes.ReferenceNotFound, path,
                $"its attributes name a type of {missing}, and {missing}.dll is neither beside it nor among the references given. "
                + $"Put {missing}.dll beside the input, pass it with --reference, or rewrite through Async2.Build, which passes the project's references.");
        }
    }

    /// <summary>
    /// What carries a custom attribute whose constructor token leads nowhere, which only damage
    /// makes (Cecil then reads the attribute with no constructor, and every later look at its type
    /// would fail as if Async2 had a bug); null if none does. Reads no attribute's arguments.
    /// </summary>
    private static string? AttributeWithoutConstructor(ModuleDefinition module)
    {
        static bool Broken(ICustomAttributeProvider provider) =>
            provider.HasCustomAttributes && provider.CustomAttributes.Any(attribute => attribute.Constructor?.DeclaringType is null);

        if (module.Assembly is { } assembly && Broken(assembly))
            return "the assembly";
        if (Broken(module))
            return "the module";
        foreach (var type in module.GetTypes())
        {
            if (Broken(type))
                return type.FullName;
            var member = type.Methods.Cast<IMemberDefinition>().Concat(type.Fields).Concat(type.Properties).Concat(type.Events)
                .FirstOrDefault(m => Broken(m) || m is MethodDefinition method && (method.Parameters.Any(Broken) || Broken(method.MethodReturnType)));
            if (member is not null)
                return member.FullName;
        }
        return null;
    }

    /// <summary>
    /// Where a method body holds an instruction whose token or branch target names nothing, which
    /// Cecil decodes into a null operand without a word (every later look at it would fail as if
    /// Async2 had a bug); null if none does. Looking decodes every body, so damage Cecil throws on
    /// there is met here too, before any phase. (A short form's local or argument past the method's
    /// is left to the analysis: its ASYNC2900 says "or IL that no compiler emits".)
    /// </summary>
    private static string? InstructionNamingNothing(ModuleDefinition module)
    {
        foreach (var method in module.GetTypes().SelectMany(type => type.Methods).Where(method => method.HasBody))
            foreach (var instruction in method.Body.Instructions)
                if (instruction.OpCode.OperandType != OperandType.InlineNone
                    && (instruction.Operand is null || instruction.Operand is Instruction?[] targets && targets.Contains(null)))
                    return $"the {instruction.OpCode.Name} at IL_{instruction.Offset:x4} of {method.FullName}";
        return null;
    }

    /// <summary>
    /// A ReadyToRun image (PublishReadyToRun) carries native code compiled from the IL, which no
    /// longer matches it once rewritten: the output is written as a plain, platform-neutral IL
    /// assembly, as the compiler produced it before crossgen (whose machine field also encodes the
    /// target OS), and the JIT compiles it. Other images with native code (C++/CLI) cannot be rewritten.
    /// </summary>
    private static void DropReadyToRunCode(ModuleDefinition module, string path)
    {
        if ((module.Attributes & ModuleAttributes.ILLibrary) != 0)
        {
            module.Attributes = (module.Attributes & ~ModuleAttributes.ILLibrary) | ModuleAttributes.ILOnly;
            module.Architecture = TargetArchitecture.I386;
            return;
        }
        if ((module.Attributes & ModuleAttributes.ILOnly) == 0)
            throw Diagnostics.FileProblem(DiagnosticCodes.NotAnAssembly, path, "it contains native code (a mixed-mode assembly), which cannot be rewritten. Pass an IL-only assembly.");
    }

    /// <summary>Reads the key pair a rewrite signs its output with (<see cref="RewriteRequest.StrongNameKeyFile"/>).</summary>
    public static byte[] ReadStrongNameKey(string keyFile)
    {
        try
        {
            return File.ReadAllBytes(keyFile);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ArgumentException or NotSupportedException)
        {
            throw Diagnostics.FileProblem(DiagnosticCodes.KeyNotUsable, keyFile,
                $"the strong-name key file cannot be read ({e.Message}). Pass the .snk the input was signed with.");
        }
    }

    public static void Write(LoadedModule loaded, string outputPath, bool copyRuntime, byte[]? strongNameKey, string? keyFile, CancellationToken cancellation)
    {
        try
        {
            WriteThroughScratch(loaded, outputPath, copyRuntime, strongNameKey, keyFile, cancellation);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw OutputPath.WriteFailed(outputPath, e);
        }
    }

    private static void WriteThroughScratch(LoadedModule loaded, string outputPath, bool copyRuntime, byte[]? strongNameKey, string? keyFile, CancellationToken cancellation)
    {
        var publicKey = loaded.Module.Assembly.Name.PublicKey;
        var directory = Path.GetDirectoryName(outputPath)!;
        // The folders made for the output go again if it fails: a refusal leaves nothing behind.
        var madeFolders = FoldersToMake(directory);
        Directory.CreateDirectory(directory);
        var scratch = Directory.CreateDirectory(Path.Combine(directory, $".async2-{Guid.NewGuid():N}"));
        var written = false;
        try
        {
            var assembly = Path.Combine(scratch.FullName, Path.GetFileName(outputPath));
            // The .pdb goes through memory: Cecil records in the debug directory the path of the
            // symbol file it writes, which would name the scratch folder (and make every rewrite
            // differ); RecordedPdbPath records the input's instead.
            using var symbols = loaded.Symbols == SymbolsLocation.File ? new MemoryStream() : null;
            var parameters = new WriterParameters
            {
                WriteSymbols = loaded.Symbols != SymbolsLocation.None,
                SymbolStream = symbols,
                SymbolWriterProvider = loaded.Symbols switch
                {
                    SymbolsLocation.Embedded => new EmbeddedPortablePdbWriterProvider(),
                    SymbolsLocation.File => RecordedPdbPath.For(loaded.Module.FileName, outputPath),
                    _ => null,
                },
                StrongNameKeyBlob = strongNameKey,
            };
            try
            {
                loaded.Module.Write(assembly, parameters);
            }
            catch (Exception e) when (strongNameKey is not null && e is CryptographicException or ArgumentException or FormatException or IndexOutOfRangeException)
            {
                throw Diagnostics.FileProblem(DiagnosticCodes.KeyNotUsable, keyFile!,
                    $"it holds no strong-name key pair to sign with ({e.Message}). Pass the .snk with the private key (a public key alone only delay-signs).");
            }
            // Cecil gives the assembly the key's public key: another key would change its identity.
            if (strongNameKey is not null && !publicKey.AsSpan().SequenceEqual(loaded.Module.Assembly.Name.PublicKey))
                throw Diagnostics.FileProblem(DiagnosticCodes.KeyNotUsable, keyFile!,
                    "its public key is not the one the input was compiled with (or the input has none), so the rewritten assembly would have another identity. Pass the .snk the input was signed with, or no key for an unsigned input.");
            var pdb = Path.ChangeExtension(assembly, ".pdb");
            if (symbols is not null)
                File.WriteAllBytes(pdb, symbols.ToArray());

            // An app's .deps.json goes along, listing Async2.Runtime: the host loads only what it lists.
            var inputDeps = Path.ChangeExtension(loaded.Module.FileName, ".deps.json");
            var deps = Path.ChangeExtension(assembly, ".deps.json");
            if (copyRuntime && File.Exists(inputDeps))
            {
                File.Copy(inputDeps, deps);
                DepsFile.AddRuntime(deps, inputDeps, RuntimeVersion);
            }

            // The last point to stop at: the moves below leave the output whole only if all are made.
            cancellation.ThrowIfCancellationRequested();
            if (copyRuntime)
            {
                var runtimeCopy = Path.Combine(scratch.FullName, Path.GetFileName(RuntimeAssemblyPath));
                File.Copy(RuntimeAssemblyPath, runtimeCopy);
                MoveIntoPlace(runtimeCopy, directory);
            }
            if (File.Exists(deps))
                MoveIntoPlace(deps, directory);
            if (symbols is not null)
                MoveIntoPlace(pdb, directory);
            MoveIntoPlace(assembly, directory);
            written = true;
        }
        finally
        {
            scratch.Delete(recursive: true);
            if (!written)
                foreach (var folder in madeFolders.Where(folder => !Directory.EnumerateFileSystemEntries(folder).Any()))
                    Directory.Delete(folder);
        }
    }

    /// <summary>The folders <c>Directory.CreateDirectory(<paramref name="directory"/>)</c> would make, innermost first.</summary>
    private static List<string> FoldersToMake(string directory)
    {
        var folders = new List<string>();
        for (var folder = directory; folder is not null && !Directory.Exists(folder); folder = Path.GetDirectoryName(folder))
            folders.Add(folder);
        return folders;
    }

    private static void MoveIntoPlace(string file, string directory) =>
        File.Move(file, Path.Combine(directory, Path.GetFileName(file)), overwrite: true);
}
