using System.Reflection;
using System.Runtime.CompilerServices;
using System.Runtime.Loader;
using System.Security;

namespace Async2.Rewriter.Verify;

/// <summary>One method the JIT refused: which, and what it said.</summary>
public sealed record RejectedMethod(string Method, string Exception, string Message)
{
    public override string ToString() => $"error {DiagnosticCodes.RejectedByJit}: {Method}: {Exception}: {Message}";
}

/// <summary>What <see cref="AssemblyVerifier.Verify"/> compiled, left out and found.</summary>
public sealed record VerificationReport(int MethodsCompiled, IReadOnlyList<string> NotInstantiated, IReadOnlyList<RejectedMethod> Rejected);

/// <summary>
/// The check behind <c>async2 verify</c> and the test harness: loads an assembly into a collectible
/// context of its own, with what it references found as the host would find it for the app (shared
/// frameworks such as ASP.NET Core's included), and has the JIT compile every method body,
/// resumption paths included, which a run may never reach. ILVerify is not available here, and the JIT is the judge that matters: it
/// refuses malformed IL with InvalidProgramException (it does not say at which offset). Generic
/// types and methods are compiled over <c>object</c>, or <c>int</c> where a parameter must be a
/// value type; definitions whose constraints neither satisfies are listed, not compiled.
/// </summary>
public static class AssemblyVerifier
{
    private const BindingFlags AllDeclared = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.Static | BindingFlags.DeclaredOnly;

    /// <param name="references">Assemblies to load by simple name before any other of that name (<c>--reference</c>).</param>
    /// <exception cref="RewriteException">The file is no assembly or has runtime-async methods this runtime cannot load (ASYNC2001), its runtimeconfig.json cannot be read (ASYNC2001), or a framework it names is not installed (ASYNC2004).</exception>
    public static VerificationReport Verify(string path, IReadOnlyList<string>? references = null)
    {
        var full = Path.GetFullPath(path);
        if (AssemblyFile.WhyNotAnInput(full) is { } why)
            throw Diagnostics.FileProblem(DiagnosticCodes.NotAnAssembly, full, why);
        if (!RuntimeLoadsRuntimeAsync && AssemblyFile.RuntimeAsyncMvid(full) is not null)
            throw Diagnostics.FileProblem(DiagnosticCodes.NotAnAssembly, full,
                $"it has runtime-async methods that were not rewritten, which .NET {Environment.Version.Major} loads only under DOTNET_RuntimeAsync=1 (each of its types would be refused with TypeLoadException). "
                + "Rewrite it first (async2 rewrite <in.dll> -o <out.dll>) and verify the output.");
        var context = new AppLoadContext(references ?? [], [Path.GetDirectoryName(full)!, .. FrameworkFolders(full)]);
        try
        {
            return Compile(Load(context, full));
        }
        finally
        {
            context.Unload();
        }
    }

    /// <summary>Loads the assembly, or says why the runtime refuses to (damage the headers did not show).</summary>
    private static Assembly Load(AssemblyLoadContext context, string path)
    {
        try
        {
            return context.LoadFromAssemblyPath(path);
        }
        catch (Exception e) when (e is BadImageFormatException or FileLoadException or SecurityException)
        {
            throw Diagnostics.FileProblem(DiagnosticCodes.NotAnAssembly, path,
                $"the runtime refuses to load it, so it is damaged ({e.GetType().Name}: {e.Message}). Rebuild it or copy it again.");
        }
    }

    /// <summary>Whether this process's runtime loads runtime-async methods: .NET 11 and later do, .NET 10 under its switch.</summary>
    private static bool RuntimeLoadsRuntimeAsync =>
        Environment.Version.Major >= 11 || Environment.GetEnvironmentVariable("DOTNET_RuntimeAsync") == "1";

    /// <summary>
    /// The folders of the shared frameworks other than Microsoft.NETCore.App (the one this process
    /// runs on) that the app's runtimeconfig.json names, as the host would pick them: without them,
    /// every method touching ASP.NET Core was refused with FileNotFoundException. None for a library.
    /// </summary>
    private static IEnumerable<string> FrameworkFolders(string assembly)
    {
        var runtimeConfig = Path.ChangeExtension(assembly, ".runtimeconfig.json");
        if (!File.Exists(runtimeConfig))
            return [];
        var folders = new List<string>();
        foreach (var framework in SharedFrameworks.NamedBy(runtimeConfig).Where(framework => framework.Name != SharedFrameworks.NetCoreApp))
        {
            var installed = SharedFrameworks.Installed(framework.Name).Select(i => i.Version).ToList();
            folders.Add(SharedFrameworks.Resolve(framework) ?? throw Diagnostics.FileProblem(DiagnosticCodes.ReferenceNotFound, runtimeConfig,
                $"it names the shared framework {framework.Name} {framework.Version} (roll forward: {framework.RollForward}), and "
                + (installed.Count == 0 ? "no version of it" : $"none of its installed versions ({string.Join(", ", installed)})")
                + $" is one the host would run the app on, in {SharedFrameworks.SharedFolder ?? "this .NET installation"}. "
                + $"Install the {framework.Name} runtime the app was built for, or pass the folder of that framework's assemblies with --reference."));
        }
        return folders;
    }

    private static VerificationReport Compile(Assembly assembly)
    {
        int compiled = 0;
        var notInstantiated = new List<string>();
        var rejected = new List<RejectedMethod>();
        Type[] types;
        try
        {
            types = assembly.GetTypes();
        }
        catch (ReflectionTypeLoadException e)
        {
            rejected.AddRange(e.LoaderExceptions.OfType<Exception>().Select(problem => new RejectedMethod(assembly.GetName().Name!, problem.GetType().Name, problem.Message)));
            types = e.Types.OfType<Type>().ToArray();
        }
        foreach (var definition in types)
        {
            if (Instantiate(definition) is not { } type)
            {
                notInstantiated.Add(definition.FullName!);
                continue;
            }
            foreach (var method in type.GetMethods(AllDeclared).Cast<MethodBase>().Concat(type.GetConstructors(AllDeclared)))
            {
                // Abstract methods have no body; delegates' Invoke and friends are the runtime's own.
                if (method.IsAbstract || method.MethodImplementationFlags.HasFlag(MethodImplAttributes.Runtime))
                    continue;
                var name = $"{type.FullName}::{method.Name}";
                if (Instantiate(method) is not { } instance)
                {
                    notInstantiated.Add(name);
                    continue;
                }
                try
                {
                    // Shared generic code needs the instantiation named: the type's arguments, then the method's.
                    var arguments = type.GetGenericArguments().Concat(instance.IsGenericMethod ? instance.GetGenericArguments() : []).ToArray();
                    RuntimeHelpers.PrepareMethod(instance.MethodHandle, arguments.Length == 0 ? null : [.. arguments.Select(argument => argument.TypeHandle)]);
                    compiled++;
                }
                // ArgumentException: the runtime's E_INVALIDARG for a body it cannot decode.
                catch (Exception e) when (e is InvalidProgramException or BadImageFormatException or TypeLoadException or ArgumentException
                    or MissingMethodException or MissingFieldException or FileNotFoundException or FileLoadException or VerificationException)
                {
                    rejected.Add(new RejectedMethod(name, e.GetType().Name, e.Message));
                }
            }
        }
        return new VerificationReport(compiled, notInstantiated, rejected);
    }

    /// <summary>The type itself, or a generic definition closed over stand-in arguments; null if its constraints allow none.</summary>
    private static Type? Instantiate(Type type)
    {
        if (!type.IsGenericTypeDefinition)
            return type;
        try
        {
            return type.MakeGenericType(type.GetGenericArguments().Select(StandIn).ToArray());
        }
        catch (ArgumentException)
        {
            return null;
        }
    }

    private static MethodBase? Instantiate(MethodBase method)
    {
        if (method is not MethodInfo { IsGenericMethodDefinition: true } generic)
            return method;
        try
        {
            return generic.MakeGenericMethod(generic.GetGenericArguments().Select(StandIn).ToArray());
        }
        catch (ArgumentException)
        {
            return null;
        }
    }

    private static Type StandIn(Type parameter) =>
        (parameter.GenericParameterAttributes & GenericParameterAttributes.NotNullableValueTypeConstraint) != 0 ? typeof(int) : typeof(object);

    /// <summary>
    /// Loads what the assembly references as the host would for the app: the given references
    /// first, then its own folder (an app's or a rewrite's output), then the shared frameworks its
    /// runtimeconfig.json names; Microsoft.NETCore.App's assemblies come from this process's own.
    /// A copy of one of those found first is left for this process's unless its version is newer, as
    /// the host leaves an app's copy: loaded here, it would be a second assembly of that name, whose
    /// types the framework's own assemblies do not take, and every call passing them between the
    /// two would be refused (MissingMethodException) though the host runs it.
    /// </summary>
    private sealed class AppLoadContext(IReadOnlyList<string> references, IReadOnlyList<string> folders)
        : AssemblyLoadContext($"async2-verify-{Guid.NewGuid():N}", isCollectible: true)
    {
        private static readonly string RuntimeFolder = Path.GetDirectoryName(typeof(object).Assembly.Location)!;

        protected override Assembly? Load(AssemblyName name)
        {
            var candidate = references.FirstOrDefault(path => string.Equals(Path.GetFileNameWithoutExtension(path), name.Name, StringComparison.OrdinalIgnoreCase))
                ?? folders.Select(folder => Path.Combine(folder, name.Name + ".dll")).FirstOrDefault(File.Exists);
            return candidate is null || RuntimeHasAtLeast(candidate) ? null : LoadFromAssemblyPath(candidate);
        }

        private static bool RuntimeHasAtLeast(string candidate)
        {
            var runtimeCopy = Path.Combine(RuntimeFolder, Path.GetFileName(candidate));
            return File.Exists(runtimeCopy)
                && AssemblyName.GetAssemblyName(runtimeCopy).Version >= AssemblyName.GetAssemblyName(candidate).Version;
        }
    }
}
