// OverrideDispatch: virtual calls from rewritten code to rewritten virtual methods.
//
// A rewritten virtual method M gets a virtual *entry* beside its variant M' (the rewriter's
// Rewrite/VirtualEntries.cs). Rewritten overrides of M override the entry too, so a rewritten
// caller holding a base reference reaches the most derived rewritten body through one virtual
// call, with no Task. A derived class can still override M alone: a non-async override, one the
// compiler built in classic form, or one in an assembly that was never rewritten. So the entry
// first checks that the object's most derived M is the one it stands for (an exact-type test,
// then a per-type cache for subclasses); if not, it calls M virtually and awaits the task here.
//
// Only the cache miss and the foreign-override path cost anything; both stay off the hot path of
// a rewritten override called on its own type.
using System.Collections.Concurrent;
using System.ComponentModel;
using System.Diagnostics;
using System.Reflection;
using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using System.Runtime.CompilerServices;

namespace Async2.Runtime;

[EditorBrowsable(EditorBrowsableState.Never)]
[StackTraceHidden]
public static class OverrideDispatch
{
    private static readonly ConcurrentDictionary<Slot, bool> s_runsOwnBody = new();

    /// <summary>
    /// Whether the body of <paramref name="declaringType"/>'s method named <paramref name="name"/>
    /// runs for <paramref name="self"/>: no class between the object's and the declaring one
    /// overrides a method of that name. Overloads are not told apart, which can only send a call
    /// down the slower, always correct path. (The method is named by its declaring type and name
    /// because ldtoken of a method allocates.)
    /// </summary>
    public static bool RunsOwnBody(object self, RuntimeTypeHandle declaringType, string name)
    {
        var type = self.GetType();
        var slot = new Slot(type.TypeHandle.Value, declaringType.Value, name);
        if (s_runsOwnBody.TryGetValue(slot, out bool runsOwnBody))
            return runsOwnBody;
        runsOwnBody = !OverriddenBelow(type, Type.GetTypeFromHandle(declaringType)!, name);
        s_runsOwnBody.TryAdd(slot, runsOwnBody);
        return runsOwnBody;
    }

    /// <summary>
    /// The runtime's rule for who takes a slot, on the classes between <paramref name="type"/> and
    /// <paramref name="declaringType"/>: a virtual method that is not <c>newslot</c> overrides the
    /// inherited one of its name and signature, and an explicit <c>.override</c> record overrides
    /// the method it names whatever the flags (C# writes one, on a <c>newslot</c> method, for a
    /// covariant return such as <c>override Task&lt;int&gt; M()</c> over <c>virtual Task M()</c>).
    /// A <c>newslot</c> method without a record hides rather than overrides. Methods are told
    /// apart by name only, which can only err towards the slower, always correct path.
    /// </summary>
    private static bool OverriddenBelow(Type type, Type declaringType, string name)
    {
        const BindingFlags declaredInstance = BindingFlags.DeclaredOnly | BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic;
        for (var below = type; below is not null && below != declaringType; below = below.BaseType)
        {
            foreach (var candidate in below.GetMethods(declaredInstance))
            {
                if (candidate.Name == name && candidate.IsVirtual && (candidate.Attributes & MethodAttributes.NewSlot) == 0)
                    return true;
            }
            if (OverridesExplicitly(below, name))
                return true;
        }
        return false;
    }

    /// <summary>
    /// Whether <paramref name="type"/>'s own <c>.override</c> records name a class method called
    /// <paramref name="name"/>. Reflection does not show these records, so they are read from the
    /// assembly's metadata; where that is not available (a dynamic assembly, a module other than the manifest), any virtual method of
    /// the name counts.
    /// </summary>
    private static unsafe bool OverridesExplicitly(Type type, string name)
    {
        if (type.Module != type.Assembly.ManifestModule || !type.Assembly.TryGetRawMetadata(out byte* blob, out int length))
            return type.GetMethods(BindingFlags.DeclaredOnly | BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic)
                .Any(m => m.IsVirtual);
        var metadata = new MetadataReader(blob, length);
        var definition = metadata.GetTypeDefinition(MetadataTokens.TypeDefinitionHandle(type.MetadataToken));
        foreach (var handle in definition.GetMethodImplementations())
        {
            var declaration = metadata.GetMethodImplementation(handle).MethodDeclaration;
            var declarationName = declaration.Kind == HandleKind.MethodDefinition
                ? metadata.GetMethodDefinition((MethodDefinitionHandle)declaration).Name
                : metadata.GetMemberReference((MemberReferenceHandle)declaration).Name;
            if (metadata.StringComparer.Equals(declarationName, name) && !DeclaredOnInterface(type, declaration))
                return true;
        }
        return false;
    }

    /// <summary>Whether the method an <c>.override</c> record of <paramref name="type"/> names is an interface's (an interface implementation, not a class override); when it cannot be resolved, it is taken as a class's.</summary>
    private static bool DeclaredOnInterface(Type type, EntityHandle declaration)
    {
        try
        {
            var method = type.Module.ResolveMethod(MetadataTokens.GetToken(declaration), type.IsGenericType ? type.GetGenericArguments() : null, null);
            return method?.DeclaringType?.IsInterface == true;
        }
        catch (Exception e) when (e is ArgumentException or TypeLoadException or MissingMethodException or BadImageFormatException)
        {
            return false;
        }
    }

    /// <summary>A method slot as an entry names it; the name is an interned literal, compared by reference.</summary>
    private readonly struct Slot(IntPtr type, IntPtr declaringType, string name) : IEquatable<Slot>
    {
        private readonly IntPtr _type = type;
        private readonly IntPtr _declaringType = declaringType;
        private readonly string _name = name;

        public bool Equals(Slot other) => _type == other._type && _declaringType == other._declaringType && ReferenceEquals(_name, other._name);
        public override bool Equals(object? obj) => obj is Slot other && Equals(other);
        public override int GetHashCode() => HashCode.Combine(_type, _declaringType, RuntimeHelpers.GetHashCode(_name));
    }

    // Awaiting the task of a foreign override. A completed task costs nothing more; otherwise a
    // one-field frame stands in for the override, as if it were a rewritten leaf awaiting its task.

    public static void Await(Task task, ref AsyncChain chain)
    {
        if (task.IsCompleted)
        {
            task.GetAwaiter().GetResult();
            return;
        }
        chain.Notifier = task;
        chain.Link(new TaskFrame(task));
    }

    public static T Await<T>(Task<T> task, ref AsyncChain chain)
    {
        if (task.IsCompleted)
            return task.GetAwaiter().GetResult();
        chain.Notifier = task;
        chain.Link(new TaskFrame<T>(task));
        return default!;
    }

    public static void Await(ValueTask task, ref AsyncChain chain)
    {
        if (task.IsCompleted)
            task.GetAwaiter().GetResult();
        else
            Await(task.AsTask(), ref chain);
    }

    public static T Await<T>(ValueTask<T> task, ref AsyncChain chain) =>
        task.IsCompleted ? task.GetAwaiter().GetResult() : Await(task.AsTask(), ref chain);

    [StackTraceHidden]
    private sealed class TaskFrame(Task task) : Continuation
    {
        public override void Resume(ref AsyncChain chain) => task.GetAwaiter().GetResult();
    }

    [StackTraceHidden]
    private sealed class TaskFrame<T>(Task<T> task) : Continuation<T>
    {
        public override void Resume(ref AsyncChain chain) => Result = task.GetAwaiter().GetResult();
    }
}
