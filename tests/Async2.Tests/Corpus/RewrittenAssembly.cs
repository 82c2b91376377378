using System.Reflection;
using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;
using System.Runtime.CompilerServices;
using System.Runtime.Loader;
using Xunit;

namespace Async2.Tests.Corpus;

/// <summary>Structural checks on a rewritten assembly that running it cannot show.</summary>
internal static class RewrittenAssembly
{
    private const int AsyncImplFlag = 0x2000;

    /// <summary>Methods still flagged MethodImplAttributes.Async, as Type::Method.</summary>
    public static IReadOnlyList<string> AsyncFlaggedMethods(string path)
    {
        using var pe = new PEReader(File.OpenRead(path));
        var metadata = pe.GetMetadataReader();
        return metadata.MethodDefinitions
            .Select(metadata.GetMethodDefinition)
            .Where(m => ((int)m.ImplAttributes & AsyncImplFlag) != 0)
            .Select(m => $"{metadata.GetString(metadata.GetTypeDefinition(m.GetDeclaringType()).Name)}::{metadata.GetString(m.Name)}")
            .ToList();
    }

    /// <summary>
    /// The async2 variants of <paramref name="type"/>::<paramref name="method"/>, the methods of that
    /// name taking the chain on its continuation class: the resumable one (taking the continuation
    /// to resume) first, then the fresh-call one where the method has it.
    /// </summary>
    public static IReadOnlyList<Mono.Cecil.MethodDefinition> Variants(Mono.Cecil.ModuleDefinition module, string type, string method)
    {
        var variants = module.GetType(type).NestedTypes.SelectMany(t => t.Methods)
            .Where(m => m.Name == method && m.Parameters.Any(p => p.Name == "chain"))
            .OrderBy(m => m.Parameters.Any(p => p.Name == "resume") ? 0 : 1)
            .ToList();
        Assert.True(variants.Count is 1 or 2 && variants[0].Parameters[^1].Name == "resume",
            $"{type}::{method}: expected a resumable variant and at most one fresh-call variant, found {variants.Count} method(s)");
        return variants;
    }

    /// <summary>The calls of out-of-line suspension methods (<c>&lt;M&gt;s__SuspendK</c>) in a variant.</summary>
    public static IReadOnlyList<Mono.Cecil.Cil.Instruction> OutOfLineSuspensionCalls(Mono.Cecil.MethodDefinition variant) =>
        variant.Body.Instructions
            .Where(i => i.Operand is Mono.Cecil.MethodReference { Name: var name } && name.Contains(">s__Suspend", StringComparison.Ordinal))
            .ToList();

    /// <summary>The out-of-line suspension methods (<c>&lt;M&gt;s__SuspendK</c>) a variant calls.</summary>
    public static IReadOnlyList<Mono.Cecil.MethodDefinition> OutOfLineSuspensions(Mono.Cecil.MethodDefinition variant) =>
        OutOfLineSuspensionCalls(variant).Select(i => ((Mono.Cecil.MethodReference)i.Operand).Resolve()).ToList();

    /// <summary>
    /// Asserts that the rewritten build of <paramref name="build"/> prints what the classic build
    /// prints, and that both end with exit code 0.
    /// </summary>
    public static void PrintsWhatClassicPrints(ProgramBuild build)
    {
        var classic = ProgramRunner.Transcript(build.Classic, runtimeAsync: false);
        Assert.EndsWith("[exit code 0]", classic);
        Assert.Equal(classic, ProgramRunner.Transcript(build.Rewritten, runtimeAsync: false));
    }

    /// <summary>Member references into System.Runtime.CompilerServices.AsyncHelpers.</summary>
    public static IReadOnlyList<string> AsyncHelpersReferences(string path)
    {
        using var pe = new PEReader(File.OpenRead(path));
        var metadata = pe.GetMetadataReader();
        var found = new List<string>();
        foreach (var handle in metadata.MemberReferences)
        {
            var member = metadata.GetMemberReference(handle);
            var parent = member.Parent;
            if (parent.Kind == HandleKind.MethodSpecification)
                continue; // its method is a MemberReference listed on its own
            if (parent.Kind == HandleKind.TypeReference)
            {
                var type = metadata.GetTypeReference((TypeReferenceHandle)parent);
                if (metadata.GetString(type.Name) == "AsyncHelpers")
                    found.Add($"AsyncHelpers::{metadata.GetString(member.Name)}");
            }
        }
        return found;
    }

    /// <summary>
    /// Virtual and interface entries (<c>&lt;M&gt;v__Async2</c>) that return what an
    /// <c>OverrideDispatch.Await</c> they call does not: a result left on the stack of an entry
    /// returning nothing, which the JIT accepts (so <see cref="MethodsTheJitRejects"/> misses it)
    /// but is no valid IL. One line each.
    /// </summary>
    public static IReadOnlyList<string> EntriesReturningOtherThanTheirAwait(string path)
    {
        using var module = Mono.Cecil.ModuleDefinition.ReadModule(path);
        return [.. from type in module.GetTypes()
                   from entry in type.Methods
                   where entry.Name.EndsWith(">v__Async2", StringComparison.Ordinal) && entry.HasBody
                   from instruction in entry.Body.Instructions
                   where instruction.Operand is Mono.Cecil.MethodReference { Name: "Await", DeclaringType.Name: "OverrideDispatch" }
                   let awaited = (Mono.Cecil.MethodReference)instruction.Operand
                   let result = awaited is Mono.Cecil.GenericInstanceMethod generic ? generic.GenericArguments[0].FullName : awaited.ReturnType.FullName
                   where result != entry.ReturnType.FullName
                   select $"{type.FullName}::{entry.Name} returns {entry.ReturnType.FullName} but awaits for {result}"];
    }

    /// <summary>
    /// Every method body of the assembly that the JIT refuses, generic ones compiled over stand-in
    /// arguments (the product's own check, <c>async2 verify</c>), one line each.
    /// </summary>
    public static IReadOnlyList<string> MethodsTheJitRejects(string path) =>
        Async2.Rewriter.Verify.AssemblyVerifier.Verify(path).Rejected.Select(rejected => rejected.ToString()).ToList();

    /// <summary>
    /// Reads the custom attributes of every type, method, constructor and parameter of the assembly,
    /// non-public and generated ones included, as a framework scanning attributes would (DI
    /// containers, test frameworks, serializers). An attribute naming a type that cannot be loaded,
    /// such as <c>[AsyncStateMachine(typeof(...))]</c> naming a type whose name does not parse,
    /// throws there. Returns one line per member whose attributes could not be read.
    /// </summary>
    public static IReadOnlyList<string> MembersWhoseAttributesCannotBeRead(string path) => Inspect(path, assembly =>
    {
        var problems = new List<string>();
        void Read(ICustomAttributeProvider member, string name)
        {
            try
            {
                member.GetCustomAttributes(false);
            }
            catch (Exception e)
            {
                problems.Add($"{name}: {e.GetType().Name}: {e.Message}");
            }
        }
        foreach (var type in assembly.GetTypes())
        {
            Read(type, type.FullName!);
            IEnumerable<MethodBase> methods = type.GetMethods(AllDeclared);
            foreach (var method in methods.Concat(type.GetConstructors(AllDeclared)))
            {
                Read(method, $"{type.FullName}::{method.Name}");
                foreach (var parameter in method.GetParameters())
                    Read(parameter, $"{type.FullName}::{method.Name}({parameter.Name})");
            }
        }
        return problems;
    });

    private const BindingFlags AllDeclared = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.Static | BindingFlags.DeclaredOnly;

    /// <summary>Runs <paramref name="inspect"/> on the assembly at <paramref name="path"/>, loaded into a context of its own that is unloaded afterwards.</summary>
    private static T Inspect<T>(string path, Func<Assembly, T> inspect)
    {
        var context = new AssemblyLoadContext($"inspect-{Guid.NewGuid():N}", isCollectible: true);
        try
        {
            return inspect(context.LoadFromAssemblyPath(path));
        }
        finally
        {
            context.Unload();
        }
    }
}
