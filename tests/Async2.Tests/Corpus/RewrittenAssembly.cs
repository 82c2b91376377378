using System.Reflection;
using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;
using System.Runtime.CompilerServices;
using System.Runtime.Loader;

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

    /// <summary>The async2 variant of <paramref name="type"/>::<paramref name="method"/>: the method of that name taking the chain, on its continuation class.</summary>
    public static Mono.Cecil.MethodDefinition Variant(Mono.Cecil.ModuleDefinition module, string type, string method) =>
        module.GetType(type).NestedTypes.SelectMany(t => t.Methods).Single(m => m.Name == method && m.Parameters.Any(p => p.Name == "chain"));

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
    /// JIT-compiles every non-generic method body of the assembly (the JIT rejects malformed IL
    /// with InvalidProgramException), including resumption paths a run may never reach.
    /// Returns one line per method the JIT refused.
    /// </summary>
    public static IReadOnlyList<string> MethodsTheJitRejects(string path)
    {
        var context = new AssemblyLoadContext($"jit-check-{Guid.NewGuid():N}", isCollectible: true);
        try
        {
            var assembly = context.LoadFromAssemblyPath(path);
            var problems = new List<string>();
            const BindingFlags all = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.Static | BindingFlags.DeclaredOnly;
            foreach (var type in assembly.GetTypes().Where(t => !t.ContainsGenericParameters))
            {
                // Delegate types' Invoke and BeginInvoke are implemented by the runtime: there is no IL to compile.
                IEnumerable<MethodBase> methods = type.GetMethods(all).Where(m => !m.IsAbstract && !m.ContainsGenericParameters
                    && !m.MethodImplementationFlags.HasFlag(MethodImplAttributes.Runtime));
                methods = methods.Concat(type.GetConstructors(all));
                foreach (var method in methods)
                {
                    try
                    {
                        RuntimeHelpers.PrepareMethod(method.MethodHandle);
                    }
                    catch (Exception e) when (e is InvalidProgramException or BadImageFormatException or TypeLoadException or MissingMethodException or MissingFieldException)
                    {
                        problems.Add($"{type.FullName}::{method.Name}: {e.GetType().Name}: {e.Message}");
                    }
                }
            }
            return problems;
        }
        finally
        {
            context.Unload();
        }
    }
}
