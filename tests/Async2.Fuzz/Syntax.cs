using System.Collections.Immutable;
using System.Text;

namespace Async2.Fuzz;

// The generated programs as trees, so the reducer can delete and unwrap statements and every
// result still compiles: statements whose validity depends on where they stand (return, break,
// continue, throw;) are emitted only where C# allows them and dropped elsewhere.

public abstract record Statement;

/// <summary>
/// Fixed code; <paramref name="Calls"/> names the case's static methods it calls. Code that jumps out
/// of itself writes <c>%RETURN%</c> or <c>%GOTO_END%</c>: the emitter prints a return, or a goto to the
/// method's last statement, where C# allows one (no return in a finally, no goto in a closure) and a
/// harmless statement elsewhere, so the code compiles wherever it stands or the reducer moves it.
/// </summary>
public sealed record Leaf(string Code, ImmutableArray<string> Calls) : Statement
{
    public Leaf(string code) : this(code, []) { }
}

/// <summary>ThrowCaught is <c>throw e;</c> of the innermost catch's exception; GotoEnd jumps to the method's last statement.</summary>
public enum JumpKind { Return, Break, Continue, Rethrow, ThrowCaught, GotoEnd }

/// <summary><c>if (Condition) return/break/continue/throw/goto;</c> where that is allowed.</summary>
public sealed record Jump(JumpKind Kind, string Condition) : Statement;

public sealed record If(string Condition, Block Then, Block? Else) : Statement;

/// <summary>
/// The first four only iterate. With the others, leaving the loop runs the enumerator's own code,
/// and some throw: a List's enumerator, a struct enumerator whose Dispose logs, sync and async
/// iterators whose finally logs (the async one awaits in it) and that throw at an element, and an
/// async enumerator whose MoveNextAsync and DisposeAsync are async methods (rewritten with the
/// program) that throw.
/// </summary>
public enum LoopKind { For, While, ForEach, AwaitForEach, DoWhile, ForEachList, ForEachStruct, ForEachIterator, AwaitForEachIterator, AwaitForEachEnumerator }

public sealed record Loop(LoopKind Kind, int Id, int Count, Block Body) : Statement;

public sealed record Catch(int Id, string Type, string? Filter, Block Body);

public sealed record Try(Block Body, ImmutableArray<Catch> Catches, Block? Finally) : Statement;

public sealed record Using(bool Async, int Id, Block Body) : Statement;

public enum ClosureKind { Lambda, LocalFunction }

/// <summary>An async lambda or local function over the enclosing locals, defined and awaited in place.</summary>
public sealed record Closure(ClosureKind Kind, int Id, bool Classic, Block Body) : Statement;

public sealed record Block(ImmutableArray<Statement> Statements)
{
    public static Block Empty { get; } = new(ImmutableArray<Statement>.Empty);
}

public enum ReturnKind { Task, TaskOfInt, ValueTask, ValueTaskOfInt }

/// <summary>
/// An async method of a case: a static method of the case class (Owner null) or an instance method
/// of one of the case's types. Every one takes (Trace t, int d, int x), keeps its running value in
/// acc, and returns at once when the fuel d is spent, which bounds recursion.
/// </summary>
public sealed record Method(string? Owner, string Modifiers, string Name, ReturnKind Returns, bool Generic, bool Classic, string Preamble, Block Body)
{
    public bool ReturnsValue => Returns is ReturnKind.TaskOfInt or ReturnKind.ValueTaskOfInt;

    public string ReturnType => Returns switch
    {
        ReturnKind.Task => "Task",
        ReturnKind.TaskOfInt => "Task<int>",
        ReturnKind.ValueTask => "ValueTask",
        _ => "ValueTask<int>",
    };
}

/// <summary>One generated program: a static class with its methods and nested types, entered by Run.</summary>
/// <param name="TypeHeaders">Per owner, the type's declaration line and its members that are not generated methods.</param>
public sealed record Case(int Seed, ImmutableArray<Method> Methods, ImmutableArray<(string Owner, string Header, string Members)> TypeHeaders, string ExtraMembers)
{
    public Method Entry => Methods[0];
}

public static class Emitter
{
    /// <summary>Where a statement stands, which decides which jumps are allowed there; CaughtVariable names the innermost catch's exception.</summary>
    private readonly record struct Place(bool ReturnsValue, bool CanReturn, bool CanBreak, bool CanRethrow, bool CanGotoEnd, string? CaughtVariable);

    public static string Emit(Case c, string className)
    {
        var s = new StringBuilder();
        s.AppendLine($"// fuzz program {c.Seed}");
        s.AppendLine($"static class {className}");
        s.AppendLine("{");
        s.AppendLine("    static readonly AsyncLocal<int> Local = new();");
        s.AppendLine();
        s.AppendLine("    public static async Task<string> Run()");
        s.AppendLine("    {");
        s.AppendLine("        var t = new Trace();");
        s.AppendLine("        try");
        s.AppendLine("        {");
        var entryCall = $"{c.Entry.Name}{(c.Entry.Generic ? "<int>" : "")}(t, 3, {c.Seed % 100}{(c.Entry.Generic ? ", 0" : "")})";
        s.AppendLine(c.Entry.ReturnsValue ? $"            t.Log(\"result\", await {entryCall});" : $"            await {entryCall};\n            t.Log(\"done\");");
        s.AppendLine("        }");
        s.AppendLine("        catch (Exception e) { t.Log(\"escaped\", Fuzz.Describe(e)); }");
        s.AppendLine("        t.Log(\"local\", Local.Value);");
        s.AppendLine("        return t.ToString();");
        s.AppendLine("    }");
        if (c.ExtraMembers.Length > 0)
            s.AppendLine().Append(c.ExtraMembers);
        foreach (var method in c.Methods.Where(m => m.Owner is null))
            EmitMethod(s, method, "    ");
        foreach (var (owner, header, members) in c.TypeHeaders)
        {
            s.AppendLine().AppendLine("    " + header).AppendLine("    {");
            if (members.Length > 0)
                s.AppendLine("        " + members);
            foreach (var method in c.Methods.Where(m => m.Owner == owner))
                EmitMethod(s, method, "        ");
            s.AppendLine("    }");
        }
        s.AppendLine("}");
        return s.ToString();
    }

    private static void EmitMethod(StringBuilder s, Method m, string indent)
    {
        s.AppendLine();
        if (m.Classic)
            s.AppendLine(indent + "[RuntimeAsyncMethodGeneration(false)]");
        if (m.Modifiers.Contains("abstract"))
        {
            s.AppendLine($"{indent}{m.Modifiers} {m.ReturnType} {m.Name}(Trace t, int d, int x);");
            return;
        }
        var typeParameters = m.Generic ? "<T>" : "";
        var tag = m.Generic ? ", T tag" : "";
        s.AppendLine($"{indent}{m.Modifiers} async {m.ReturnType} {m.Name}{typeParameters}(Trace t, int d, int x{tag})");
        s.AppendLine(indent + "{");
        var inner = indent + "    ";
        var ret = m.ReturnsValue ? "return x;" : "return;";
        s.AppendLine($"{inner}if (d <= 0) {ret}");
        s.AppendLine($"{inner}int acc = x;");
        if (m.Preamble.Length > 0)
            s.AppendLine(inner + m.Preamble);
        s.AppendLine($"{inner}t.Log(\"{m.Owner}{m.Name}>\", acc);");
        var place = new Place(m.ReturnsValue, CanReturn: true, CanBreak: false, CanRethrow: false, CanGotoEnd: true, CaughtVariable: null);
        EmitStatements(s, m.Body, place, inner);
        s.AppendLine($"{inner}{EndLabel}: t.Log(\"{m.Owner}{m.Name}<\", acc);");
        s.AppendLine(inner + (m.ReturnsValue ? "return acc;" : "return;"));
        s.AppendLine(indent + "}");
    }

    /// <summary>The label of a method's last statements, the target of GotoEnd (unused labels are not warned about: CS0164).</summary>
    private const string EndLabel = "end_";

    private static void EmitStatements(StringBuilder s, Block block, Place place, string indent)
    {
        foreach (var statement in block.Statements)
            EmitStatement(s, statement, place, indent);
    }

    private static void EmitBlock(StringBuilder s, Block block, Place place, string indent)
    {
        s.AppendLine(indent + "{");
        EmitStatements(s, block, place, indent + "    ");
        s.AppendLine(indent + "}");
    }

    private static void EmitStatement(StringBuilder s, Statement statement, Place place, string indent)
    {
        switch (statement)
        {
            case Leaf leaf:
                var code = leaf.Code
                    .Replace("%RETURN%", !place.CanReturn ? "acc += 1000;" : place.ReturnsValue ? "return acc;" : "return;")
                    .Replace("%GOTO_END%", place.CanGotoEnd ? $"goto {EndLabel};" : "acc += 2000;");
                foreach (var line in code.Split('\n'))
                    s.AppendLine(indent + line);
                break;
            case Jump jump:
                var jumpCode = jump.Kind switch
                {
                    JumpKind.Return when place.CanReturn => place.ReturnsValue ? "return acc;" : "return;",
                    JumpKind.Break when place.CanBreak => "break;",
                    JumpKind.Continue when place.CanBreak => "continue;",
                    JumpKind.Rethrow when place.CanRethrow => "throw;",
                    JumpKind.ThrowCaught when place.CanRethrow && place.CaughtVariable is not null => $"throw {place.CaughtVariable};",
                    JumpKind.GotoEnd when place.CanGotoEnd => $"goto {EndLabel};",
                    _ => null,
                };
                if (jumpCode is not null)
                    s.AppendLine($"{indent}if ({jump.Condition}) {jumpCode}");
                break;
            case If branch:
                s.AppendLine($"{indent}if ({branch.Condition})");
                EmitBlock(s, branch.Then, place, indent);
                if (branch.Else is not null)
                {
                    s.AppendLine(indent + "else");
                    EmitBlock(s, branch.Else, place, indent);
                }
                break;
            case Loop loop:
                EmitLoop(s, loop, place with { CanBreak = true }, indent);
                break;
            case Try attempt:
                EmitTry(s, attempt, place, indent);
                break;
            case Using use:
                var resource = use.Async ? $"await using (var r{use.Id} = new AsyncResource(t, {use.Id}))" : $"using (var r{use.Id} = new Resource(t, {use.Id}))";
                s.AppendLine(indent + resource);
                EmitBlock(s, use.Body, place, indent);
                break;
            case Closure closure:
                EmitClosure(s, closure, indent);
                break;
            default:
                throw new InvalidOperationException($"unknown statement {statement.GetType().Name}");
        }
    }

    private static void EmitLoop(StringBuilder s, Loop loop, Place body, string indent)
    {
        var v = $"i{loop.Id}";
        switch (loop.Kind)
        {
            case LoopKind.For:
                s.AppendLine($"{indent}for (int {v} = 0; {v} < {loop.Count}; {v}++)");
                break;
            case LoopKind.While:
                s.AppendLine($"{indent}int {v} = 0;");
                s.AppendLine($"{indent}while ({v}++ < {loop.Count})");
                break;
            case LoopKind.ForEach:
                s.AppendLine($"{indent}foreach (var {v} in new[] {{ {string.Join(", ", Enumerable.Range(1, loop.Count))} }})");
                break;
            case LoopKind.AwaitForEach:
                s.AppendLine($"{indent}await foreach (var {v} in Fuzz.Range({loop.Count}))");
                break;
            case LoopKind.DoWhile:
                s.AppendLine($"{indent}int {v} = 0;");
                s.AppendLine(indent + "do");
                break;
            case LoopKind.ForEachList:
                s.AppendLine($"{indent}foreach (var {v} in new System.Collections.Generic.List<int> {{ {string.Join(", ", Enumerable.Range(1, loop.Count))} }})");
                break;
            case LoopKind.ForEachStruct:
                s.AppendLine($"{indent}foreach (var {v} in new Bag(t, {loop.Count}))");
                break;
            // Whether and where the enumerators throw comes from the id, so the reducer keeps it.
            case LoopKind.ForEachIterator:
                s.AppendLine($"{indent}foreach (var {v} in Flow.Items(t, {loop.Count}, throwAt: {loop.Id % (loop.Count + 2)}))");
                break;
            case LoopKind.AwaitForEachIterator:
                s.AppendLine($"{indent}await foreach (var {v} in Flow.Stream(t, {loop.Count}, throwAt: {loop.Id % (loop.Count + 2)}, throwAfterAwait: {(loop.Id % 2 == 0 ? "true" : "false")}))");
                break;
            case LoopKind.AwaitForEachEnumerator:
                s.AppendLine($"{indent}await foreach (var {v} in new Feed(t, {loop.Count}, throwAt: {loop.Id % (loop.Count + 2)}, throwInDispose: {(loop.Id % 3 == 0 ? "true" : "false")}))");
                break;
        }
        s.AppendLine(indent + "{");
        s.AppendLine($"{indent}    t.Log(\"{v}\", {v});");
        EmitStatements(s, loop.Body, body, indent + "    ");
        s.AppendLine(indent + "}" + (loop.Kind == LoopKind.DoWhile ? $" while (++{v} < {loop.Count});" : ""));
    }

    private static void EmitTry(StringBuilder s, Try attempt, Place place, string indent)
    {
        if (attempt.Catches.IsEmpty && attempt.Finally is null)
        {
            EmitBlock(s, attempt.Body, place, indent);
            return;
        }
        s.AppendLine(indent + "try");
        EmitBlock(s, attempt.Body, place, indent);
        foreach (var handler in attempt.Catches)
        {
            var e = $"e{handler.Id}";
            s.AppendLine($"{indent}catch ({handler.Type} {e}){(handler.Filter is null ? "" : $" when ({handler.Filter.Replace("$e", e)})")}");
            s.AppendLine(indent + "{");
            s.AppendLine($"{indent}    t.Log(\"catch{handler.Id}\", Fuzz.Describe({e}));");
            EmitStatements(s, handler.Body, place with { CanRethrow = true, CaughtVariable = e }, indent + "    ");
            s.AppendLine(indent + "}");
        }
        if (attempt.Finally is not null)
        {
            s.AppendLine(indent + "finally");
            s.AppendLine(indent + "{");
            s.AppendLine($"{indent}    t.Log(\"finally\", acc);");
            EmitStatements(s, attempt.Finally, place with { CanReturn = false, CanBreak = false, CanRethrow = false, CanGotoEnd = false, CaughtVariable = null }, indent + "    ");
            s.AppendLine(indent + "}");
        }
    }

    private static void EmitClosure(StringBuilder s, Closure closure, string indent)
    {
        var name = $"f{closure.Id}";
        var attribute = closure.Classic ? "[RuntimeAsyncMethodGeneration(false)] " : "";
        var body = new Place(ReturnsValue: true, CanReturn: true, CanBreak: false, CanRethrow: false, CanGotoEnd: false, CaughtVariable: null);
        s.AppendLine(closure.Kind == ClosureKind.Lambda
            ? $"{indent}Func<Task<int>> {name} = {attribute}async () =>"
            : $"{indent}{attribute}async Task<int> {name}()");
        s.AppendLine(indent + "{");
        s.AppendLine($"{indent}    t.Log(\"{name}>\", acc);");
        EmitStatements(s, closure.Body, body, indent + "    ");
        s.AppendLine($"{indent}    return acc;");
        s.AppendLine(indent + (closure.Kind == ClosureKind.Lambda ? "};" : "}"));
        s.AppendLine($"{indent}acc += await {name}();");
    }
}
