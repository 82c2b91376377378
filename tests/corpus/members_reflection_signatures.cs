// What reflection reads from the signatures of async methods, as serializers, DI containers, test
// frameworks, nullability analyzers and RPC dispatchers read it: each parameter's name, type,
// position, IsOptional/HasDefaultValue/DefaultValue (null, enums, nullable enums, decimal through
// [DecimalConstant], Guid default, [Optional, DefaultParameterValue], caller info), parameter
// attributes (a custom attribute with arguments, params), the return parameter's attributes
// ([return: MaybeNull], tuple element names), NullabilityInfoContext's reading of parameters and
// results (nullable reference type arguments inside Task<T> and ValueTask<T>), generic parameter
// constraints, method attributes other than the state machine marker, and MethodInfo flags
// (static, virtual, final, abstract, visibility) on an interface, an abstract generic base and its
// override. Then the methods are found by GetMethod with parameter types, invoked with Type.Missing
// for their defaults, and bound by name through `dynamic` (params expanded) and called.
using System;
using System.Collections.Generic;
using System.Diagnostics.CodeAnalysis;
using System.Linq;
using System.Reflection;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading.Tasks;

enum Mode { Fast = 1, Slow = 2 }

[AttributeUsage(AttributeTargets.All, AllowMultiple = true)]
sealed class NoteAttribute(string text) : Attribute
{
    public string Text => text;
    public int Order { get; set; }
    public override string ToString() => $"Note({text},{Order})";
}

interface IRepo<TKey> where TKey : notnull
{
    Task<string?> FindAsync(TKey key, bool exact = true);
}

abstract class RepoBase<TKey> : IRepo<TKey> where TKey : notnull
{
    public abstract Task<string?> FindAsync(TKey key, bool exact = true);
    [Note("virtual", Order = 2)]
    protected internal virtual async ValueTask<IReadOnlyList<string?>?> ListAsync(int? limit = null, Mode mode = Mode.Slow)
    {
        await Task.Yield();
        return limit is null ? null : new List<string?> { mode.ToString(), null };
    }
}

sealed class Repo : RepoBase<string>
{
    [Note("override")]
    public override async Task<string?> FindAsync([Note("key", Order = 1)] string key, bool exact = true)
    {
        await Task.Yield();
        return exact ? key : null;
    }

    protected internal override async ValueTask<IReadOnlyList<string?>?> ListAsync(int? limit = 5, Mode mode = Mode.Fast)
    {
        var list = await base.ListAsync(limit, mode);
        return list;
    }

    [return: Note("result", Order = 3)]
    [return: MaybeNull]
    public static async Task<T> ConvertAsync<T, TSource>(TSource? source, [Optional, DefaultParameterValue(7)] int retries, decimal scale = 1.5m,
        [CallerMemberName] string caller = "", [CallerLineNumber] int line = 0)
        where T : class, new()
        where TSource : struct, IComparable<TSource>
    {
        await Task.Yield();
        return source is null ? default! : new T();
    }

    public async Task<bool> TryGetAsync(string? name, DateTime? since = null, [Note("flag")] params object?[] extra)
    {
        await Task.Yield();
        return name is not null;
    }

    public static async Task<(int Count, string? Name)> TupleAsync(Guid id = default, Mode? mode = Mode.Fast, string text = "d\"q")
    {
        await Task.Yield();
        return (1, id.ToString()[..4]);
    }

    [Obsolete("use FindAsync")]
    internal async Task<Dictionary<string, List<int?>>> LegacyAsync(int _) { await Task.Yield(); return new(); }
}

static class Program
{
    static readonly NullabilityInfoContext s_nullability = new();

    static string Nullability(NullabilityInfo info) =>
        info.ReadState + (info.GenericTypeArguments.Length > 0 ? "<" + string.Join(",", info.GenericTypeArguments.Select(Nullability)) + ">" : "");

    static string TypeName(Type t) =>
        t.IsGenericType ? $"{t.Name[..t.Name.IndexOf('`')]}<{string.Join(",", t.GetGenericArguments().Select(TypeName))}>" : t.Name;

    static string Attributes(IEnumerable<object> attributes) =>
        string.Join(",", attributes
            .Select(a => a is NoteAttribute n ? n.ToString() : a.GetType().Name)
            .Order(StringComparer.Ordinal));

    static string Describe(MethodInfo m)
    {
        var lines = new List<string>();
        string flags = $"{(m.IsStatic ? "static " : "")}{(m.IsVirtual ? "virtual " : "")}{(m.IsFinal ? "final " : "")}{(m.IsAbstract ? "abstract " : "")}"
            + $"{(m.IsPublic ? "public" : m.IsFamilyOrAssembly ? "protected internal" : m.IsAssembly ? "internal" : m.IsFamily ? "protected" : "private")}";
        lines.Add($"{m.DeclaringType!.Name}.{m.Name}: {flags}, returns {TypeName(m.ReturnType)} [{Nullability(s_nullability.Create(m.ReturnParameter))}]");
        // Left out: [AsyncStateMachine], and the [DebuggerStepThrough] of a Debug build, which
        // the runtime's own runtime async does not emit either (interfaces_explicit_reflection
        // prints the first), and the [StackTraceHidden] that Async2 puts on its Task thunks by
        // design (docs/design.md, "Reflection").
        var methodAttributes = m.GetCustomAttributes(false)
            .Where(a => a is not (AsyncStateMachineAttribute or System.Diagnostics.DebuggerStepThroughAttribute or System.Diagnostics.StackTraceHiddenAttribute));
        lines.Add($"  attributes: [{Attributes(methodAttributes)}] return attributes: [{Attributes(m.ReturnParameter.GetCustomAttributes(false))}]");
        if (m.IsGenericMethodDefinition)
            foreach (var g in m.GetGenericArguments())
                lines.Add($"  <{g.Name}> {g.GenericParameterAttributes} constraints [{string.Join(",", g.GetGenericParameterConstraints().Select(TypeName))}]");
        foreach (var p in m.GetParameters())
        {
            string def = p.HasDefaultValue ? $" = {(p.DefaultValue is null ? "null" : $"{p.DefaultValue} ({p.DefaultValue.GetType().Name})")}" : "";
            lines.Add($"  #{p.Position} {TypeName(p.ParameterType)} {p.Name}{def} optional={p.IsOptional} [{Attributes(p.GetCustomAttributes(false))}] nullability={Nullability(s_nullability.Create(p))}");
        }
        return string.Join("\n", lines);
    }

    static async Task Main()
    {
        var flags = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.Static | BindingFlags.DeclaredOnly;
        foreach (var type in new[] { typeof(IRepo<>), typeof(RepoBase<>), typeof(Repo) })
            foreach (var m in type.GetMethods(flags).Where(m => m.Name.EndsWith("Async")).OrderBy(m => m.Name, StringComparer.Ordinal))
                Console.WriteLine(Describe(m));

        var find = typeof(Repo).GetMethod("FindAsync", [typeof(string), typeof(bool)]);
        var list = typeof(Repo).GetMethod("ListAsync", BindingFlags.NonPublic | BindingFlags.Instance, [typeof(int?), typeof(Mode)]);
        Console.WriteLine($"GetMethod by types: {find?.Name} {list?.Name} base definition {list?.GetBaseDefinition().DeclaringType?.Name}");
        var repo = new Repo();
        Console.WriteLine($"invoke with defaults: {await (Task<string?>)find!.Invoke(repo, ["k", Type.Missing])!} {(await (ValueTask<IReadOnlyList<string?>?>)list!.Invoke(repo, [Type.Missing, Type.Missing])!)?.Count}");
        dynamic d = repo;
        string? viaDynamic = await d.FindAsync("dyn");
        bool got = await d.TryGetAsync("n", null, 1, 2);
        var tuple = await Repo.TupleAsync();
        var converted = await Repo.ConvertAsync<List<int>, int>(3);
        Console.WriteLine($"dynamic {viaDynamic} {got} tuple {tuple} converted {converted?.GetType().Name}");
    }
}
