using System.Collections.Immutable;

namespace Async2.Fuzz;

/// <summary>
/// The one-step simplifications of a case, biggest first: dropping a static method nobody calls,
/// making a classic method runtime-async, then in every method body deleting a statement,
/// replacing a compound statement by one of its blocks, and simplifying inside statements.
/// The reducer tries them in this order and keeps the first that still shows the difference.
/// </summary>
public static class Reductions
{
    public static IEnumerable<Case> Of(Case c)
    {
        for (int i = 1; i < c.Methods.Length; i++)
        {
            var method = c.Methods[i];
            if (method.Owner is null && !c.Methods.Any(other => other != method && CallsOf(other.Body).Contains(method.Name)))
                yield return c with { Methods = c.Methods.RemoveAt(i) };
        }
        for (int i = 0; i < c.Methods.Length; i++)
        {
            if (c.Methods[i].Classic)
                yield return c with { Methods = c.Methods.SetItem(i, c.Methods[i] with { Classic = false }) };
        }
        for (int i = 0; i < c.Methods.Length; i++)
        {
            foreach (var body in Of(c.Methods[i].Body))
                yield return c with { Methods = c.Methods.SetItem(i, c.Methods[i] with { Body = body }) };
        }
    }

    private static IEnumerable<Block> Of(Block block)
    {
        var statements = block.Statements;
        for (int i = 0; i < statements.Length; i++)
            yield return new Block(statements.RemoveAt(i));
        for (int i = 0; i < statements.Length; i++)
        {
            foreach (var inner in Unwrappings(statements[i]))
                yield return new Block(statements.RemoveAt(i).InsertRange(i, inner.Statements));
        }
        for (int i = 0; i < statements.Length; i++)
        {
            foreach (var simpler in Of(statements[i]))
                yield return new Block(statements.SetItem(i, simpler));
        }
    }

    /// <summary>The blocks a compound statement can be replaced by.</summary>
    private static IEnumerable<Block> Unwrappings(Statement statement)
    {
        switch (statement)
        {
            case If branch:
                yield return branch.Then;
                if (branch.Else is not null)
                    yield return branch.Else;
                break;
            case Loop loop:
                yield return loop.Body;
                break;
            case Try attempt:
                yield return attempt.Body;
                if (attempt.Finally is not null)
                    yield return attempt.Finally;
                break;
            case Using use:
                yield return use.Body;
                break;
            case Closure closure:
                yield return closure.Body;
                break;
        }
    }

    private static IEnumerable<Statement> Of(Statement statement)
    {
        switch (statement)
        {
            case If branch:
                if (branch.Else is not null)
                    yield return branch with { Else = null };
                foreach (var then in Of(branch.Then))
                    yield return branch with { Then = then };
                if (branch.Else is not null)
                {
                    foreach (var otherwise in Of(branch.Else))
                        yield return branch with { Else = otherwise };
                }
                break;
            case Loop loop:
                if (loop.Count > 1)
                    yield return loop with { Count = 1 };
                if (loop.Kind != LoopKind.For)
                    yield return loop with { Kind = LoopKind.For };
                foreach (var body in Of(loop.Body))
                    yield return loop with { Body = body };
                break;
            case Try attempt:
                for (int i = 0; i < attempt.Catches.Length; i++)
                    yield return attempt with { Catches = attempt.Catches.RemoveAt(i) };
                if (attempt.Finally is not null)
                    yield return attempt with { Finally = null };
                foreach (var body in Of(attempt.Body))
                    yield return attempt with { Body = body };
                for (int i = 0; i < attempt.Catches.Length; i++)
                {
                    var handler = attempt.Catches[i];
                    // Unfiltered, a clause must not hide a later one of its type (CS0160).
                    if (handler.Filter is not null && !attempt.Catches.Skip(i + 1).Any(later => later.Type == handler.Type))
                        yield return attempt with { Catches = attempt.Catches.SetItem(i, handler with { Filter = null }) };
                    foreach (var body in Of(handler.Body))
                        yield return attempt with { Catches = attempt.Catches.SetItem(i, handler with { Body = body }) };
                }
                if (attempt.Finally is not null)
                {
                    foreach (var body in Of(attempt.Finally))
                        yield return attempt with { Finally = body };
                }
                break;
            case Using use:
                if (use.Async)
                    yield return use with { Async = false };
                foreach (var body in Of(use.Body))
                    yield return use with { Body = body };
                break;
            case Closure closure:
                if (closure.Classic)
                    yield return closure with { Classic = false };
                foreach (var body in Of(closure.Body))
                    yield return closure with { Body = body };
                break;
        }
    }

    public static ImmutableHashSet<string> CallsOf(Block block) =>
        block.Statements.SelectMany(CallsOf).ToImmutableHashSet();

    private static IEnumerable<string> CallsOf(Statement statement) => statement switch
    {
        Leaf leaf => leaf.Calls,
        If branch => CallsOf(branch.Then).Concat(branch.Else is null ? [] : CallsOf(branch.Else)),
        Loop loop => CallsOf(loop.Body),
        Try attempt => CallsOf(attempt.Body).Concat(attempt.Catches.SelectMany(h => CallsOf(h.Body))).Concat(attempt.Finally is null ? [] : CallsOf(attempt.Finally)),
        Using use => CallsOf(use.Body),
        Closure closure => CallsOf(closure.Body),
        _ => [],
    };

    /// <summary>How big a case is, in statements, for reports.</summary>
    public static int Size(Case c) => c.Methods.Sum(m => Size(m.Body));

    private static int Size(Block block) => block.Statements.Sum(s => 1 + s switch
    {
        If branch => Size(branch.Then) + (branch.Else is null ? 0 : Size(branch.Else)),
        Loop loop => Size(loop.Body),
        Try attempt => Size(attempt.Body) + attempt.Catches.Sum(h => 1 + Size(h.Body)) + (attempt.Finally is null ? 0 : Size(attempt.Finally)),
        Using use => Size(use.Body),
        Closure closure => Size(closure.Body),
        _ => 0,
    });
}
