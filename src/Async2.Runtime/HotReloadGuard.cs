// HotReloadGuard: stops an app whose rewritten async methods a hot reload host has just changed,
// rather than letting it run them.
//
// Hot reload compiles an edited method as the compiler writes it and replaces that method's body.
// For an async method of a rewritten assembly, that method is the Task thunk (Rewrite/TaskThunkEmitter.cs),
// and the new body is in runtime-async form, which the stock runtime runs as plain IL: its result is
// taken for the Task (wrong values, crashes, a corrupted heap), while callers that call the variant
// keep running the old code. dotnet watch is kept from hot reloading such apps (buildTransitive/
// Async2.Runtime.targets); an IDE's Hot Reload or Edit and Continue is not, and calls the metadata
// update handlers of the app's assemblies after applying an edit, which is where this one stops it.
// An edit that touched only types without async methods goes on.
//
// Keep in sync: the continuation class names (Rewrite/VariantMap.cs, "<M>d__Async2_N"), README "dotnet watch".
using System.Diagnostics.CodeAnalysis;
using System.Reflection;
using System.Reflection.Metadata;

[assembly: MetadataUpdateHandler(typeof(Async2.Runtime.HotReloadGuard))]

namespace Async2.Runtime;

internal static class HotReloadGuard
{
    /// <summary>Called by the hot reload agent after it applied an edit; <paramref name="updatedTypes"/> null when it cannot tell which types changed.</summary>
    public static void UpdateApplication(Type[]? updatedTypes)
    {
        var changed = updatedTypes?.FirstOrDefault(DeclaresRewrittenAsyncMethods);
        if (updatedTypes is null ? AnyRewrittenAssemblyLoaded() : changed is not null)
        {
            Environment.FailFast($"Async2: hot reload changed {changed?.FullName ?? "the app's types"}, whose async methods Async2 rewrote. "
                + "Hot reload replaced their Task entry points with code the stock runtime cannot run as it is, and their callers would go on "
                + "running the old code. Restart the app to run the edit (it is rebuilt and rewritten); hot reload cannot apply edits to rewritten async methods.");
        }
    }

    // Metadata updates run only where the app is not trimmed (MetadataUpdater.IsSupported is false once it is).
    [UnconditionalSuppressMessage("Trimming", "IL2070", Justification = "Hot reload is not supported in trimmed apps.")]
    [UnconditionalSuppressMessage("Trimming", "IL2075", Justification = "Hot reload is not supported in trimmed apps.")]
    private static bool DeclaresRewrittenAsyncMethods(Type type) =>
        IsRewritten(type.Assembly)
        && type.GetNestedTypes(BindingFlags.NonPublic).Any(nested => nested.Name.Contains(">d__Async2_", StringComparison.Ordinal));

    private static bool AnyRewrittenAssemblyLoaded() => AppDomain.CurrentDomain.GetAssemblies().Any(IsRewritten);

    private static bool IsRewritten(Assembly assembly) => assembly.IsDefined(typeof(RewrittenByAsync2Attribute), inherit: false);
}
