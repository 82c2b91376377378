using Async2.Rewriter;
using Async2.Rewriter.Emit;
using Mono.Cecil;
using Mono.Cecil.Cil;

namespace Async2.Cli.Inspect;

/// <summary>One async method as <c>async2 inspect</c> shows it.</summary>
internal sealed record InspectedMethod(
    string Method,
    string Status,
    string? Reason,
    string? Continuation,
    int? ContinuationBytes,
    bool StackGuard,
    bool ContextScope,
    IReadOnlyList<AwaitOutcome> Awaits,
    IReadOnlyList<string> ILBefore,
    IReadOnlyList<string> ILAfter);

/// <summary>What <c>async2 inspect</c> found in one assembly.</summary>
internal sealed record InspectionReport(string Assembly, string Form, IReadOnlyList<InspectedMethod> Methods)
{
    /// <summary>
    /// Inspects <paramref name="path"/>: a runtime-async assembly is rewritten into a scratch folder
    /// (the input is only read) and each method is described from the rewrite's report and the two
    /// bodies; an assembly Async2 already rewrote, or a classic one, is described from its metadata.
    /// </summary>
    public static InspectionReport Of(string path, IReadOnlyList<string> references)
    {
        var scratch = Directory.CreateTempSubdirectory("async2-inspect-");
        try
        {
            var output = Path.Combine(scratch.FullName, Path.GetFileName(path));
            var rewrite = AssemblyRewriter.Rewrite(new RewriteRequest(path, output) { CopyRuntime = false, ReferencePaths = references, Cancellation = Interruption.Token });
            // The continuations' base classes are Async2.Runtime's, which the rewrite did not copy beside the output.
            using var resolver = new ReferenceResolver(path, references);
            resolver.AddSearchDirectory(Path.GetDirectoryName(typeof(Async2.Runtime.Continuation).Assembly.Location)!);
            using var before = ModuleDefinition.ReadModule(path, new ReaderParameters { InMemory = true, AssemblyResolver = resolver });
            if (!rewrite.Written)
                return rewrite.AlreadyRewritten
                    ? new InspectionReport(path, "rewritten by Async2", [.. RewrittenMethods(before), .. ClassicMethods(rewrite)])
                    : new InspectionReport(path, "classic", ClassicMethods(rewrite, AssemblyFile.FrameworkWithoutRuntimeAsync(path)).ToList());
            using var after = ModuleDefinition.ReadModule(output, new ReaderParameters { InMemory = true, AssemblyResolver = resolver });
            var methods = rewrite.Methods.Select(outcome => Describe(outcome, before, after))
                .Concat(ClassicMethods(rewrite))
                .ToList();
            return new InspectionReport(path, "runtime-async", methods);
        }
        finally
        {
            scratch.Delete(recursive: true);
        }
    }

    private static InspectedMethod Describe(MethodOutcome outcome, ModuleDefinition before, ModuleDefinition after)
    {
        var continuation = outcome.Continuation is { } name ? after.GetTypes().FirstOrDefault(t => t.FullName == name) : null;
        // The method is named by its type and name only, which overloads share: its continuation
        // class tells which one it is (the thunk's [AsyncStateMachine] names it), and the thunk keeps
        // the original's signature.
        var thunk = continuation?.DeclaringType.Methods.FirstOrDefault(m => m.CustomAttributes.Any(a =>
            a.AttributeType.Name == "AsyncStateMachineAttribute" && a.ConstructorArguments is [{ Value: TypeReference { FullName: var named } }] && named == continuation.FullName));
        var original = thunk is null
            ? FindMethod(before, outcome.Method)
            : before.GetTypes().FirstOrDefault(t => t.FullName == thunk.DeclaringType.FullName)?.Methods.FirstOrDefault(m => m.FullName == thunk.FullName);
        var variant = continuation?.Methods.FirstOrDefault(m => m.Name == thunk?.Name && m.IsStatic);
        return new InspectedMethod(outcome.Method, outcome.Rewritten ? "rewritten" : "not rewritten", outcome.Reason, outcome.Continuation,
            continuation is null ? null : ContinuationSize.Estimate(continuation), outcome.StackGuard, outcome.ContextScope, outcome.Awaits,
            Listing(original), [.. Listing(variant), .. Listing(thunk)]);
    }

    /// <summary>
    /// In an assembly Async2 already rewrote: the thunks, found by the [AsyncStateMachine] naming
    /// their continuation class. Their await sites are the runtime-async input's to inspect.
    /// </summary>
    private static IEnumerable<InspectedMethod> RewrittenMethods(ModuleDefinition module) =>
        module.GetTypes().SelectMany(type => type.Methods)
            .Where(StateMachines.IsRewrittenThunk)
            .Select(method => new InspectedMethod($"{method.DeclaringType.FullName}::{method.Name}", "rewritten",
                "rewritten by an earlier run of Async2; inspect the runtime-async input to see its awaits (for a build, obj/<configuration>/<tfm>/async2/, with --reference bin/<configuration>/<tfm>/ for what it refers to)",
                null, null, false, false, [], [], []));

    /// <summary>The async methods the compiler built as classic state machines (<see cref="RewriteReport.ClassicMethods"/>).</summary>
    private static IEnumerable<InspectedMethod> ClassicMethods(RewriteReport rewrite, string? olderFramework = null) =>
        rewrite.ClassicMethods.Select(method => new InspectedMethod(method, "classic", WhyClassic(olderFramework), null, null, false, false, [], [], []));

    /// <summary>
    /// Why the compiler built an async method as a classic state machine: every one in an assembly
    /// for a framework without runtime async (<paramref name="olderFramework"/>), else async void,
    /// async iterators and [RuntimeAsyncMethodGeneration(false)]. <c>async2 rewrite</c> says the same.
    /// </summary>
    internal static string WhyClassic(string? olderFramework) => olderFramework is null
        ? "compiled as a classic state machine (async void, an async iterator, or [RuntimeAsyncMethodGeneration(false)]); it reaches rewritten methods through their Task thunks"
        : $"compiled as a classic state machine: the assembly targets {olderFramework}, and the compiler emits runtime-async code only for .NET 10 and later";

    private static MethodDefinition? FindMethod(ModuleDefinition module, string described)
    {
        var separator = described.LastIndexOf("::", StringComparison.Ordinal);
        var (typeName, methodName) = (described[..separator], described[(separator + 2)..]);
        return module.GetTypes().FirstOrDefault(t => t.FullName == typeName)?.Methods.FirstOrDefault(m => m.Name == methodName);
    }

    private static IReadOnlyList<string> Listing(MethodDefinition? method) =>
        method is { HasBody: true }
            ? [$"// {method.FullName}", .. method.Body.Instructions.Select(instruction => instruction.ToString()), ""]
            : [];
}

/// <summary>
/// The heap size of a continuation object, estimated from its fields the way CoreCLR lays out a
/// class on 64-bit: a 16-byte header (sync block and method table), then each class's own fields
/// after its base class's, where the base's ended. A class first fills the padding its base left
/// with its small fields that fit, then places object references, then the rest from the most
/// aligned down, each aligned to its alignment; the whole is rounded up to 8. Structs are measured
/// the same way, with their type arguments. The estimate is for comparing methods; the runtime
/// may order some fields differently (InspectTests compares it with what the runtime allocates).
/// </summary>
internal static class ContinuationSize
{
    private readonly record struct Field(int Size, int Alignment, bool IsReference);

    public static int Estimate(TypeDefinition type)
    {
        var levels = new List<List<Field>>();
        for (TypeReference? current = type; current is not null;)
        {
            TypeDefinition? definition;
            try
            {
                definition = current.Resolve();
            }
            catch (AssemblyResolutionException)
            {
                break;
            }
            if (definition is null)
                break;
            levels.Add(FieldsOf(current, definition));
            current = definition.BaseType;
        }
        int end = 0;
        foreach (var fields in Enumerable.Reverse(levels))
            end = Place(end, fields);
        return 16 + Align(end, 8);
    }

    private static List<Field> FieldsOf(TypeReference owner, TypeDefinition definition) =>
        [.. definition.Fields.Where(f => !f.IsStatic).Select(f => Measure(TypeIn(owner, f.FieldType)))];

    /// <summary>Places one class's (or struct's) fields from <paramref name="end"/> on; returns where they end.</summary>
    private static int Place(int end, List<Field> fields)
    {
        var left = new List<Field>(fields);
        int padding = Align(end, 8);
        foreach (var field in fields.Where(f => !f.IsReference && f.Alignment < 8).OrderByDescending(f => f.Size))
        {
            if (Align(end, field.Alignment) + field.Size > padding)
                continue;
            end = Align(end, field.Alignment) + field.Size;
            left.Remove(field);
        }
        foreach (var field in left.OrderByDescending(f => f.IsReference).ThenByDescending(f => f.Alignment).ThenByDescending(f => f.Size))
            end = Align(end, field.Alignment) + field.Size;
        return end;
    }

    /// <summary>A field's type as <paramref name="owner"/> sees it: Continuation&lt;int&gt;'s Result is an int, ValueTuple&lt;byte, byte&gt;'s Item1 a byte.</summary>
    private static TypeReference TypeIn(TypeReference owner, TypeReference fieldType) =>
        fieldType is GenericParameter { Type: GenericParameterType.Type } parameter && owner is GenericInstanceType instance
            ? instance.GenericArguments[parameter.Position]
            : fieldType;

    private static Field Measure(TypeReference type)
    {
        switch (type.MetadataType)
        {
            case MetadataType.Boolean or MetadataType.SByte or MetadataType.Byte: return new(1, 1, false);
            case MetadataType.Char or MetadataType.Int16 or MetadataType.UInt16: return new(2, 2, false);
            case MetadataType.Int32 or MetadataType.UInt32 or MetadataType.Single: return new(4, 4, false);
            case MetadataType.Int64 or MetadataType.UInt64 or MetadataType.Double or MetadataType.IntPtr or MetadataType.UIntPtr
                or MetadataType.Pointer or MetadataType.FunctionPointer: return new(8, 8, false);
        }
        if (!type.IsValueType || type is GenericParameter)
            return new(8, 8, true); // a reference, or a type parameter counted as one
        try
        {
            var definition = type.Resolve();
            if (definition is null)
                return new(8, 8, true);
            if (definition.IsEnum)
                return Measure(definition.Fields.First(f => !f.IsStatic).FieldType);
            var fields = FieldsOf(type, definition);
            if (fields.Count == 0)
                return new(1, 1, false);
            int alignment = fields.Max(f => f.Alignment);
            bool holdsReferences = fields.Any(f => f.IsReference);
            // A struct holding references is laid out as a class is; one without keeps its declared order.
            int size = holdsReferences ? Place(0, fields) : fields.Aggregate(0, (end, field) => Align(end, field.Alignment) + field.Size);
            return new(Align(size, alignment), alignment, false);
        }
        catch (AssemblyResolutionException)
        {
            return new(8, 8, true);
        }
    }

    private static int Align(int value, int alignment) => (value + alignment - 1) / alignment * alignment;
}
