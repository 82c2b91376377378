using System.Collections.Immutable;

namespace Async2.Fuzz;

/// <summary>
/// Generates one random case from a seed: a few static async methods calling each other (recursion
/// and mutual recursion bounded by the fuel d), optionally a class hierarchy with overrides, an
/// interface implemented by a struct and a class, and a generic class; each method a random mix of
/// the model's features, some kept classic with [RuntimeAsyncMethodGeneration(false)].
/// </summary>
public sealed class Generator
{
    private readonly Random random;
    private readonly List<Method> statics = [];
    private readonly bool hasHierarchy, hasInterface, hasHolder;
    private ReturnKind areaReturns, growReturns;
    private int nextId;

    /// <summary>Statements left for the method being generated: keeps cases small enough to read and to reduce quickly.</summary>
    private int budget;

    /// <summary>The method whose body is being generated, for base calls and generic tags.</summary>
    private Method? current;

    private Generator(int seed)
    {
        random = new Random(seed);
        hasHierarchy = Chance(0.35);
        hasInterface = Chance(0.35);
        hasHolder = Chance(0.2);
    }

    public static Case Generate(int seed) => new Generator(seed).GenerateCase(seed);

    private Case GenerateCase(int seed)
    {
        var count = random.Next(1, 5);
        for (int i = 0; i < count; i++)
            statics.Add(new Method(null, "static", $"M{i}", Pick(Enum.GetValues<ReturnKind>()), Generic: Chance(0.25), Classic: Chance(0.25), "", Block.Empty));

        var types = new List<(string, string, string)>();
        var owned = new List<Method>();
        var extra = "";
        if (hasHierarchy)
        {
            areaReturns = Pick([ReturnKind.TaskOfInt, ReturnKind.ValueTaskOfInt]);
            growReturns = Pick([ReturnKind.TaskOfInt, ReturnKind.ValueTaskOfInt]);
            types.Add(("Shape", "abstract class Shape", ""));
            types.Add(("Square", "class Square : Shape", ""));
            types.Add(("Cube", "sealed class Cube : Square", ""));
            owned.Add(Owned("Shape", "public abstract", "Area", areaReturns, classic: false));
            owned.Add(Owned("Shape", "public virtual", "Grow", growReturns, Chance(0.3)));
            owned.Add(Owned("Square", "public override", "Area", areaReturns, Chance(0.3)));
            owned.Add(Owned("Square", "public override", "Grow", growReturns, Chance(0.3)));
            owned.Add(Owned("Cube", "public override", "Area", areaReturns, Chance(0.3)));
        }
        if (hasInterface)
        {
            types.Add(("IMeter", "interface IMeter", "ValueTask<int> Read(Trace t, int d, int x);"));
            types.Add(("Meter", "struct Meter : IMeter", "public int Seed;"));
            types.Add(("Gauge", "sealed class Gauge : IMeter", ""));
            owned.Add(Owned("Meter", "public", "Read", ReturnKind.ValueTaskOfInt, Chance(0.3)) with { Preamble = "acc += Seed;" });
            owned.Add(Owned("Gauge", "public", "Read", ReturnKind.ValueTaskOfInt, Chance(0.3)));
            extra = "    static ValueTask<int> ReadVia<TMeter>(TMeter meter, Trace t, int d, int x) where TMeter : IMeter => meter.Read(t, d, x);\n";
        }
        if (hasHolder)
        {
            types.Add(("Holder", "sealed class Holder<T>", "public T Item = default!;"));
            owned.Add(Owned("Holder", "public", "Run", ReturnKind.TaskOfInt, Chance(0.3)));
        }

        var methods = statics.Concat(owned).Select(m => m.Modifiers.Contains("abstract") ? m : m with { Body = BodyOf(m) });
        return new Case(seed, [.. methods], [.. types], extra);
    }

    private Method Owned(string owner, string modifiers, string name, ReturnKind returns, bool classic) =>
        new(owner, modifiers, name, returns, Generic: false, classic, "", Block.Empty);

    private Block BodyOf(Method method)
    {
        current = method;
        budget = random.Next(4, 20);
        var body = GenerateBlock(depth: 0, inLoop: false, inCatch: false, maxStatements: 6);
        // Exceptions thrown anywhere below are caught at random depths: often the whole body is guarded too.
        return Chance(0.4) ? new Block([GenerateTry(0, inLoop: false, inCatch: false) with { Body = body }]) : body;
    }

    private Block GenerateBlock(int depth, bool inLoop, bool inCatch, int maxStatements)
    {
        var count = Math.Min(random.Next(1, maxStatements + 1), Math.Max(1, budget));
        var statements = ImmutableArray.CreateBuilder<Statement>(count);
        for (int i = 0; i < count; i++)
            statements.Add(GenerateStatement(depth, inLoop, inCatch));
        return new Block(statements.ToImmutable());
    }

    private Statement GenerateStatement(int depth, bool inLoop, bool inCatch)
    {
        Block Nested(bool loop = false, bool handler = false) => GenerateBlock(depth + 1, inLoop || loop, handler || inCatch, maxStatements: 3);

        budget--;
        if (depth < 3 && budget > 2 && Chance(0.35))
        {
            switch (random.Next(7))
            {
                case 0:
                    return new If(Condition(), Nested(), Chance(0.5) ? Nested() : null);
                case 1:
                    return new Loop(Pick(Enum.GetValues<LoopKind>()), NextId(), random.Next(1, 4), Nested(loop: true));
                case 2:
                    return new Using(Chance(0.5), NextId(), Nested());
                case 4 or 5:
                    return GenerateTry(depth, inLoop, inCatch);
                case 6:
                    return new Closure(Pick(Enum.GetValues<ClosureKind>()), NextId(), Chance(0.3),
                        GenerateBlock(depth + 1, inLoop: false, inCatch: false, maxStatements: 3));
                default:
                    var kind = inCatch && Chance(0.5) ? JumpKind.Rethrow
                        : inLoop && Chance(0.6) ? Pick([JumpKind.Break, JumpKind.Continue])
                        : JumpKind.Return;
                    return new Jump(kind, Condition());
            }
        }
        return GenerateLeaf();
    }

    private Try GenerateTry(int depth, bool inLoop, bool inCatch)
    {
        Block Nested(bool handler = false) => GenerateBlock(depth + 1, inLoop, handler || inCatch, maxStatements: 3);

        var body = Nested();
        // Ordered so no clause is unreachable behind an earlier one (CS0160), whichever the reducer removes.
        var catches = ImmutableArray.CreateBuilder<Catch>();
        if (Chance(0.5))
            catches.Add(new Catch(NextId(), "FuzzException", $"$e.Code % {random.Next(2, 4)} == {random.Next(0, 2)}", Nested(handler: true)));
        if (Chance(0.3))
            catches.Add(new Catch(NextId(), "OperationCanceledException", null, Nested(handler: true)));
        if (Chance(0.3))
            catches.Add(new Catch(NextId(), "FuzzException", null, Nested(handler: true)));
        if (Chance(0.5))
            catches.Add(new Catch(NextId(), "Exception", Chance(0.3) ? "acc % 2 == 0" : null, Nested(handler: true)));
        var hasFinally = catches.Count == 0 || Chance(0.4);
        return new Try(body, catches.ToImmutable(), hasFinally ? Nested() : null);
    }

    private Leaf GenerateLeaf()
    {
        var id = NextId();
        var c = random.Next(1, 10);
        switch (random.Next(22))
        {
            case 0: return new($"t.Log(\"s{id}\", acc);");
            case 1: return new($"acc = unchecked(acc * {c + 1} + {id});");
            case 2: return new("await Task.Yield();");
            case 3: return new(Pick(["await Task.CompletedTask;", $"acc += await Task.FromResult({c});", $"acc += await new ValueTask<int>({c});", "await default(ValueTask);"]));
            case 4: return new($"acc += await Fuzz.FromOtherThread({c}, {(Chance(0.5) ? "true" : "false")});");
            case 5 or 6: return ThrowingLeaf(id);
            case 7: return new(Chance(0.5) ? $"Local.Value = acc % 100 + {id};" : $"t.Log(\"local{id}\", Local.Value);");
            case 8: return new(Pick(["await Task.CompletedTask.ConfigureAwait(ConfigureAwaitOptions.ForceYielding);", $"acc += await Fuzz.FromOtherThread({c}, false).ConfigureAwait(false);"]));
            case 9 or 10 or 11: return CallStatement();
            case 12: return DeferredCall(id);
            case 13: return Concurrent(id);
            case 14 when hasHierarchy: return VirtualCall();
            case 15 when hasInterface: return InterfaceCall(c);
            case 16 when hasHolder: return new($"acc += await new Holder<{Pick(["int", "string"])}>().Run(t, d - 1, acc);");
            case 17 when current is { Owner: "Holder" }: return new("t.Log(\"item\", Item);");
            case 17 when current is { Generic: true }: return new("t.Log(\"tag\", tag);");
            case 18 when current is { Owner: "Square" or "Cube" } && !(current is { Owner: "Square", Name: "Area" }): return new($"acc += await base.{current.Name}(t, d - 1, acc);");
            case 19: return new("await Task.Yield();");
            case 20 or 21: return AwaitInExpression(id, c);
            default: return new($"t.Log(\"s{id}\", acc);");
        }
    }

    /// <summary>An exception, sometimes: thrown before any suspension, from a faulted or canceled task, or after a suspension on another thread.</summary>
    private Leaf ThrowingLeaf(int id) => random.Next(6) switch
    {
        0 => new($"if ({Condition()}) throw new FuzzException({id});"),
        1 => new($"if ({Condition()}) acc += await Fuzz.Faulted({id});"),
        2 => new($"if ({Condition()}) acc += await Fuzz.FailFromOtherThread({id});"),
        3 => new($"if ({Condition()}) acc += await Task.FromCanceled<int>(new CancellationToken(true));"),
        4 => new($"await Task.Yield();\nif ({Condition()}) throw new FuzzException({id});"),
        _ => new($$"""
            if ({{Condition()}})
            {
                using var cts{{id}} = new CancellationTokenSource();
                Fuzz.CancelFromOtherThread(cts{{id}});
                await Task.Delay(Timeout.Infinite, cts{{id}}.Token);
            }
            """),
    };

    /// <summary>Awaits in the middle of expressions, so values on the evaluation stack live across suspensions.</summary>
    private Leaf AwaitInExpression(int id, int c)
    {
        var (a, calls) = IntAwaitable();
        var (b, moreCalls) = IntAwaitable();
        var code = random.Next(8) switch
        {
            0 => $"acc = acc * {c + 1} + await {a};",
            1 => $"acc = Fuzz.Mix(acc, await {a}, await {b});",
            2 => $"acc = ((acc + {c}) % 2 == 0 ? await {a} : acc - 1) + await {b};",
            3 => $"t.Log(\"v{id}\", $\"{{acc}}:{{await {a}}}:{{acc + 1}}\");",
            4 => $"acc += new[] {{ acc, await {a}, {c} }}.Sum();",
            5 => $"var pair{id} = (acc, await {a}, (long)acc * {c});\nacc = unchecked((int)(pair{id}.Item1 - pair{id}.Item2 + pair{id}.Item3 % 1000));",
            6 => $"long wide{id} = acc * 3L + await {a};\ndouble real{id} = wide{id} / 2.0 + await {b};\nacc = unchecked((int)(real{id} * 2) % 100000);",
            _ => $"acc = unchecked(acc % 1000 + (await {a}) % 1000 * (await {b} % 100));",
        };
        return new(code, [.. calls, .. moreCalls]);
    }

    /// <summary>An int-valued awaitable expression: completed, completed on another thread, or a call.</summary>
    private (string Code, string[] Calls) IntAwaitable()
    {
        var valued = statics.Where(m => m.ReturnsValue).ToList();
        switch (random.Next(5))
        {
            case 0: return ($"Task.FromResult({random.Next(1, 10)})", []);
            case 1: return ($"new ValueTask<int>({random.Next(1, 10)})", []);
            case 2: return ($"Fuzz.FromOtherThread({random.Next(1, 10)}, {(Chance(0.5) ? "true" : "false")})", []);
            default:
                if (valued.Count == 0)
                    return ("Fuzz.Yielded(acc)", []);
                var callee = Pick(valued);
                return (CallOf(callee, "t"), [callee.Name]);
        }
    }

    private Leaf CallStatement()
    {
        var callee = Pick(statics);
        var call = CallOf(callee, "t");
        var configured = Chance(0.3) ? ".ConfigureAwait(false)" : "";
        return new(callee.ReturnsValue ? $"acc += await {call}{configured};" : $"await {call}{configured};", [callee.Name]);
    }

    /// <summary>A call started, then other work, then awaited: the callee writes to a forked trace meanwhile.</summary>
    private Leaf DeferredCall(int id)
    {
        var callee = Pick(statics);
        var await = callee.ReturnsValue ? $"acc += await p{id};" : $"await p{id};";
        return new($"""
            var t{id} = t.Fork();
            var p{id} = {CallOf(callee, $"t{id}")};
            t.Log("started{id}", acc);
            {await}
            t.Join(t{id});
            """, [callee.Name]);
    }

    /// <summary>Two calls running concurrently, each with its own trace, joined by WhenAll or WhenAny.</summary>
    private Leaf Concurrent(int id)
    {
        var first = Pick(statics);
        var second = Pick(statics);
        string Start(Method m, string name) =>
            $"{(m.ReturnsValue ? "Task<int>" : "Task")} {name} = {CallOf(m, "t" + name)}{(m.Returns is ReturnKind.ValueTask or ReturnKind.ValueTaskOfInt ? ".AsTask()" : "")};";
        string Finish(Method m, string name) => m.ReturnsValue ? $"acc += await {name};" : $"await {name};";
        var a = $"a{id}";
        var b = $"b{id}";
        // Which exception an awaited WhenAll throws when both tasks fault depends on how they raced, in
        // classic async too (seed 790967: 4 runs in 40), so its own exception is dropped; awaiting each
        // task next throws that task's, whichever finished first.
        var wait = Chance(0.5) ? $"try {{ await Task.WhenAll({a}, {b}); }} catch (Exception) {{ }}" : $"await Task.WhenAny({a}, {b});";
        return new($"""
            var t{a} = t.Fork();
            var t{b} = t.Fork();
            {Start(first, a)}
            {Start(second, b)}
            {wait}
            {Finish(first, a)}
            {Finish(second, b)}
            t.Join(t{a}, t{b});
            """, [first.Name, second.Name]);
    }

    private string CallOf(Method callee, string trace)
    {
        if (!callee.Generic)
            return $"{callee.Name}({trace}, d - 1, acc)";
        return Pick([$"{callee.Name}<int>({trace}, d - 1, acc, acc)", $"{callee.Name}<string>({trace}, d - 1, acc, \"s\")", $"{callee.Name}({trace}, d - 1, acc, 2.5)"]);
    }

    private Leaf VirtualCall()
    {
        var receiver = Pick(["new Square()", "new Cube()", "(Shape)new Cube()", "(Shape)new Square()"]);
        return new($"acc += await ({receiver}).{Pick(["Area", "Grow"])}(t, d - 1, acc);");
    }

    private Leaf InterfaceCall(int c) => new(Pick([
        $"acc += await ((IMeter)new Meter {{ Seed = {c} }}).Read(t, d - 1, acc);",
        $"acc += await new Meter {{ Seed = {c} }}.Read(t, d - 1, acc);",
        $"acc += await ReadVia(new Meter {{ Seed = {c} }}, t, d - 1, acc);",
        "acc += await ReadVia(new Gauge(), t, d - 1, acc);",
        "acc += await ((IMeter)new Gauge()).Read(t, d - 1, acc);",
    ]));

    // Offsets vary which branch a given acc takes; moduli of 3 to 6 make throws and early exits the exception, not the rule.
    private string Condition() => $"(acc + {random.Next(0, 7)}) % {random.Next(3, 7)} == 0";

    private int NextId() => ++nextId;

    private bool Chance(double p) => random.NextDouble() < p;

    private T Pick<T>(IReadOnlyList<T> items) => items[random.Next(items.Count)];
}
