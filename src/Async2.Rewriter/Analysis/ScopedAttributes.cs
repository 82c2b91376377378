using Mono.Cecil;

namespace Async2.Rewriter.Analysis;

/// <summary>
/// The attributes that choose how a rewritten method treats contexts, read from the nearest scope
/// that has one: the method, then its declaring types from the innermost out, then its module, then
/// its assembly. They are matched by full name, so a program may declare them itself instead of
/// referencing the ones Async2.Runtime ships. The compiler-generated methods of async lambdas and
/// local functions take them from their types (the closure class and its enclosing types), not from
/// the method whose body holds the lambda.
/// </summary>
internal static class ScopedAttributes
{
    /// <summary>Opts into flowing context mode; an optional bool argument (default true) opts back out.</summary>
    public const string FlowContexts = "Async2.Runtime.FlowContextsAttribute";

    /// <summary>Seed 002's attribute; its bool argument is continueOnCapturedContext.</summary>
    public const string ConfigureAwait = "System.Runtime.CompilerServices.ConfigureAwaitAttribute";

    /// <summary>
    /// Whether <paramref name="method"/> runs in flowing context mode: its AsyncLocal and
    /// SynchronizationContext changes stay visible to a caller that awaits it directly.
    /// </summary>
    public static bool FlowsContexts(MethodDefinition method) => Nearest(method, FlowContexts) ?? false;

    /// <summary>
    /// Whether an await in <paramref name="method"/> that names no ConfigureAwait continues on the
    /// captured SynchronizationContext or TaskScheduler (true unless a ConfigureAwait(false) applies).
    /// </summary>
    public static bool ContinuesOnCapturedContext(MethodDefinition method) => Nearest(method, ConfigureAwait) ?? true;

    private static bool? Nearest(MethodDefinition method, string attribute)
    {
        if (ValueOn(method, attribute) is { } onMethod)
            return onMethod;
        for (var type = method.DeclaringType; type is not null; type = type.DeclaringType)
            if (ValueOn(type, attribute) is { } onType)
                return onType;
        return ValueOn(method.Module, attribute) ?? ValueOn(method.Module.Assembly, attribute);
    }

    /// <summary>The attribute's bool argument (true when it has none), or null when the scope does not carry it.</summary>
    private static bool? ValueOn(ICustomAttributeProvider scope, string attribute)
    {
        if (!scope.HasCustomAttributes)
            return null;
        var found = scope.CustomAttributes.FirstOrDefault(a => a.AttributeType.FullName == attribute);
        if (found is null)
            return null;
        return found.HasConstructorArguments && found.ConstructorArguments[0].Value is bool value ? value : true;
    }
}
