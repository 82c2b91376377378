using System.Collections.Immutable;

namespace Async2.Fuzz;

/// <summary>
/// Control flow around awaits. The rewriter resumes a method inside protected regions by entering
/// every enclosing try and dispatching again there, skips finally bodies while a frame suspends,
/// rethrows a callee's exception at the await, and guards filtered direct calls with a catch and
/// rethrow, where classic async's builder simply catches in every MoveNext. So these shapes await in
/// catch and finally blocks at every level of a try nest, leave protected regions by every jump C#
/// has (return, break, continue, goto, throw;, throw e), let exceptions replace each other (a
/// finally or DisposeAsync throwing), and log every filter when it is evaluated, which shows a
/// filter run in another order against the finally blocks below it. The try nests and loops are
/// trees the reducer can take apart; the other shapes are fixed code (<see cref="Leaf"/>).
/// </summary>
public sealed partial class Generator
{
    /// <summary>
    /// The weight of the control-flow shapes among leaves, against 25 for all the others. A shape is
    /// tens of lines, and the rewrite and the optimizing JIT grow faster than the lines: with shapes
    /// at 15 and costing one statement, a batch was three times the lines and took three to four
    /// times as long; at 6 and <see cref="ControlFlowCost"/> 4 it takes about a third longer.
    /// </summary>
    private const int ControlFlowWeight = 6;

    /// <summary>What a shape takes of its method's statement budget, which keeps cases small enough to read and reduce.</summary>
    private const int ControlFlowCost = 4;

    /// <summary>
    /// Set for some cases: their awaits mostly find the work completed, so exceptions travel the
    /// direct-call path (no suspension, the callee's frame still on the stack) rather than a resumption.
    /// </summary>
    private bool? mostlySynchronous;

    private Statement ControlFlow(int id)
    {
        mostlySynchronous ??= Chance(0.4);
        budget -= ControlFlowCost - 1;
        switch (random.Next(12))
        {
            case 0: return NestedTry(level: 1, depth: random.Next(2, options.TryDepth + 1));
            case 1 or 2: return LoopWithJumps(id);
        }
        var calls = new List<string>();
        string S()
        {
            var leaf = Suspension();
            calls.AddRange(leaf.Calls);
            return leaf.Code;
        }
        string I()
        {
            var (code, called) = IntAwaitable();
            calls.AddRange(called);
            return code;
        }
        var code = random.Next(9) switch
        {
            0 => AsyncStreams(id, S),
            1 => AwaitUsing(id, S),
            2 => SwitchShapes(id, S, I),
            3 => ShortCircuits(id, I),
            4 => CompoundAssignments(id, I),
            5 => RefLocals(id, S, I),
            6 => FinallyReplacesException(id, S),
            7 => CatchOrdering(id, S),
            _ => Chance(0.5) ? ThrowThroughFinallyUnderFilter(id, S) : FilterAfterSuspension(id, S, I),
        };
        return new Leaf(code, [.. calls.Distinct()]);
    }

    /// <summary>A statement that may suspend or not, and may call the case's methods (recursion).</summary>
    private Leaf Suspension()
    {
        Leaf Call()
        {
            var (code, calls) = IntAwaitable();
            return new Leaf($"acc += await {code};", [.. calls]);
        }
        if (mostlySynchronous == true && Chance(0.8))
        {
            return random.Next(4) switch
            {
                0 => new Leaf("await Task.CompletedTask;"),
                1 => new Leaf($"acc += await Task.FromResult({random.Next(1, 9)});"),
                2 => new Leaf($"acc += await new ValueTask<int>({random.Next(1, 9)});"),
                _ => Call(),
            };
        }
        return random.Next(7) switch
        {
            0 => new Leaf("await Task.Yield();"),
            1 => new Leaf("await Task.CompletedTask;"),
            2 => new Leaf($"acc += await Fuzz.FromOtherThread({random.Next(1, 9)}, {(Chance(0.5) ? "true" : "false")});"),
            3 => new Leaf("await Task.CompletedTask.ConfigureAwait(ConfigureAwaitOptions.ForceYielding);"),
            _ => Call(),
        };
    }

    /// <summary>An exception of either hierarchy, sometimes: thrown, or from a task faulted at once or on another thread.</summary>
    private Leaf ConditionalThrow() => random.Next(5) switch
    {
        0 => new Leaf($"if ({Condition()}) throw new AltException({NextId()});"),
        1 => new Leaf($"if ({Condition()}) throw new SubAltException({NextId()});"),
        2 => new Leaf($"if ({Condition()}) throw new FuzzException({NextId()});"),
        3 => new Leaf($"if ({Condition()}) acc += await Fuzz.FailFromOtherThread({NextId()});"),
        _ => new Leaf($"if ({Condition()}) acc += await Task.FromException<int>(new SubAltException({NextId()}));"),
    };

    /// <summary>A filter condition that logs when it is evaluated ($e stands for the caught exception).</summary>
    private string NotedFilter(string condition) => $"Flow.Note(t, \"w{NextId()}\", {condition})";

    private static Block BlockOf(params Statement[] statements) => new([.. statements]);

    /// <summary>
    /// try/catch/finally nested <paramref name="depth"/> levels deep, awaiting in the body, in every
    /// catch and in the finally at each level; catches rethrow, throw the caught exception again or
    /// wrap it after their await, finally blocks may throw and hold a try/catch of their own.
    /// </summary>
    private Try NestedTry(int level, int depth)
    {
        var tag = NextId();
        var body = new List<Statement> { new Leaf($"t.Log(\"n{tag}\", acc);"), Suspension() };
        if (Chance(0.5))
            body.Add(ConditionalThrow());
        body.Add(level < depth ? NestedTry(level + 1, depth) : ConditionalThrow());
        body.Add(Suspension());
        if (Chance(0.2))
            body.Add(new Jump(JumpKind.GotoEnd, Condition()));
        if (Chance(0.2))
            body.Add(new Jump(JumpKind.Return, Condition()));

        Catch Handler(string type, string? filter)
        {
            Statement[] exit = random.Next(6) switch
            {
                0 => [new Jump(JumpKind.Rethrow, Condition())],
                1 => [new Jump(JumpKind.ThrowCaught, Condition())],
                2 => [new Leaf($"if ({Condition()}) throw new AltException({NextId()}, \"wrap\");")],
                3 => [Suspension(), new Jump(JumpKind.Rethrow, "true")],
                _ => [Suspension()],
            };
            return new Catch(NextId(), type, filter, BlockOf([Suspension(), .. exit]));
        }
        // Derived types first, so no clause hides a later one (CS0160).
        var catches = ImmutableArray.CreateBuilder<Catch>();
        if (Chance(0.35))
            catches.Add(Handler("SubAltException", Chance(0.4) ? NotedFilter($"$e.Code % 2 == {random.Next(2)}") : null));
        if (Chance(0.45))
            catches.Add(Handler("AltException", Chance(0.4) ? NotedFilter($"$e.Code % 3 != {random.Next(3)}") : null));
        if (Chance(0.3))
            catches.Add(Handler("FuzzException", NotedFilter($"$e.Code % 2 == {random.Next(2)}")));
        if (Chance(0.4) || catches.Count == 0)
            catches.Add(Handler("Exception", Chance(0.3) ? NotedFilter("acc % 2 == 0") : null));
        var hasFinally = Chance(0.6);
        if (!hasFinally && Chance(0.3))
            catches.Clear();
        Block? @finally = null;
        if (hasFinally || catches.Count == 0)
        {
            var statements = new List<Statement> { Suspension() };
            if (Chance(0.25))
                statements.Add(new Leaf($"if ({Condition()}) throw new SubAltException({NextId()});"));
            if (Chance(0.3))
                statements.Add(new Try(BlockOf(Suspension(), ConditionalThrow()), [new Catch(NextId(), "Exception", null, BlockOf(Suspension()))], null));
            statements.Add(new Leaf($"t.Log(\"F{tag}\", acc);"));
            @finally = new Block([.. statements]);
        }
        return new Try(new Block([.. body]), catches.ToImmutable(), @finally);
    }

    /// <summary>
    /// A loop of any kind whose body awaits in a try/finally and leaves it by break, continue,
    /// return, goto or a throw, also from a catch after an await; sometimes the whole loop is guarded.
    /// </summary>
    private Statement LoopWithJumps(int id)
    {
        Statement Exit() => random.Next(5) switch
        {
            0 => new Jump(JumpKind.Break, Condition()),
            1 => new Jump(JumpKind.Continue, Condition()),
            2 => new Jump(JumpKind.Return, Condition()),
            3 => new Jump(JumpKind.GotoEnd, Condition()),
            _ => ConditionalThrow(),
        };
        var guarded = new List<Statement> { Suspension(), Exit(), Suspension(), Exit() };
        if (Chance(0.4))
            guarded.Add(new Try(BlockOf(Suspension(), ConditionalThrow()), [new Catch(NextId(), "Exception", null, BlockOf(Suspension(), Exit()))], null));
        var body = new List<Statement>
        {
            new Try(new Block([.. guarded]), [], BlockOf(Suspension(), new Leaf($"t.Log(\"lf{id}\", acc);"))),
            Suspension(),
        };
        if (Chance(0.3))
            body.Add(Exit());
        var loop = new Loop(Pick(Enum.GetValues<LoopKind>()), id, random.Next(2, 5), new Block([.. body]));
        if (Chance(0.5))
            return loop;
        return new Try(BlockOf(loop), [new Catch(NextId(), "Exception", NotedFilter("acc >= 0 || true"), BlockOf(Suspension()))], null);
    }

    /// <summary>await foreach, nested, with break and continue, over async iterators and an async enumerator that throw.</summary>
    private string AsyncStreams(int id, Func<string> S)
    {
        var n = random.Next(1, 5);
        var source = Chance(0.5)
            ? $"Flow.Stream(t, {n}, {random.Next(0, n + 2)}, {(Chance(0.5) ? "true" : "false")})"
            : $"new Feed(t, {n}, {random.Next(0, n + 2)}, {(Chance(0.4) ? "true" : "false")})";
        var k = random.Next(0, n + 1);
        var inner = Chance(0.4)
            ? $"        await foreach (var u{id} in Flow.Stream(t, 2, {random.Next(0, 4)}, {(Chance(0.5) ? "true" : "false")}))\n        {{\n            t.Log(\"u{id}\", u{id});\n            {S()}\n            if (u{id} + a{id} == {k}) break;\n        }}\n"
            : "";
        return $$"""
            try
            {
                await foreach (var a{{id}} in {{source}})
                {
                    t.Log("a{{id}}", a{{id}});
                    {{S()}}
            {{inner}}        if (a{{id}} % 100 == {{k}}) break;
                    if ({{Condition()}}) continue;
                    {{S()}}
                }
                t.Log("aDone{{id}}", acc);
            }
            catch (AltException x{{id}}) when ({{NotedFilter($"x{id}.Code > 0")}})
            {
                t.Log("ax{{id}}", Fuzz.Describe(x{{id}}));
                {{S()}}
            }
            """;
    }

    /// <summary>await using (and using) of resources whose disposal suspends and throws, the body throwing or not.</summary>
    private string AwaitUsing(int id, Func<string> S)
    {
        var resource = $"new FaultyResource(t, {id}, {(Chance(0.5) ? "true" : "false")}, ({Condition()}))";
        var second = Chance(0.4) ? $"\n    await using var q{id} = new FaultyResource(t, {id + 1000}, true, ({Condition()}));" : "";
        var head = Chance(0.7) ? $"await using (var r{id} = {resource})" : $"using (var r{id} = {resource})";
        return $$"""
            try
            {
                {{head}}
                {
                    {{S()}}{{second}}
                    {{ConditionalThrow().Code}}
                    {{S()}}
                    if ({{Condition()}}) %GOTO_END%
                }
                t.Log("used{{id}}", acc);
            }
            catch (SubAltException x{{id}})
            {
                t.Log("ux{{id}}", Fuzz.Describe(x{{id}}));
                {{S()}}
            }
            catch (Exception x{{id}}) when ({{NotedFilter($"x{id} is AltException or FuzzException")}})
            {
                t.Log("uy{{id}}", Fuzz.Describe(x{{id}}));
                {{S()}}
            }
            """;
    }

    /// <summary>
    /// A switch statement awaiting in case bodies, with goto case and goto default (also out of a
    /// try/finally); or one awaiting in its when clauses, and a switch expression with awaited arms and guards.
    /// </summary>
    private string SwitchShapes(int id, Func<string> S, Func<string> I)
    {
        if (Chance(0.5))
        {
            return $$"""
                switch ((acc + {{random.Next(4)}}) % 4)
                {
                    case 0:
                        t.Log("sw{{id}}", 0);
                        {{S()}}
                        if ({{Condition()}}) goto case 2;
                        goto case 1;
                    case 1:
                        {{S()}}
                        if ({{Condition()}}) goto default;
                        t.Log("sw{{id}}", 1);
                        break;
                    case 2:
                        try
                        {
                            {{S()}}
                            if ({{Condition()}}) goto default;
                            {{S()}}
                        }
                        finally
                        {
                            t.Log("swf{{id}}", acc);
                            {{S()}}
                        }
                        t.Log("sw{{id}}", 2);
                        break;
                    default:
                        t.Log("swd{{id}}", acc);
                        {{S()}}
                        break;
                }
                """;
        }
        var o = $"o{id}";
        return $$"""
            object {{o}} = (acc % 3) switch { 0 => (object)acc, 1 => "s" + acc, _ => (long)acc };
            switch ({{o}})
            {
                case int i{{id}} when await Fuzz.Now(i{{id}} % 2 == 0) && Flow.Note(t, "g{{id}}", true):
                    t.Log("si{{id}}", i{{id}});
                    {{S()}}
                    break;
                case int i{{id}} when (await {{I()}}) > 4:
                    t.Log("sj{{id}}", i{{id}});
                    break;
                case string s{{id}} when s{{id}}.Length > 2 || await Fuzz.Later(true):
                    t.Log("ss{{id}}", s{{id}});
                    {{S()}}
                    break;
                default:
                    t.Log("sd{{id}}", {{o}});
                    break;
            }
            acc += ({{o}}, acc % 2) switch
            {
                (int, 0) => await {{I()}},
                (string x{{id}}, _) when x{{id}}.Length > await Fuzz.Later(2) => await Fuzz.Now(x{{id}}.Length),
                _ => acc % 5 - await {{I()}},
            };
            t.Log("sx{{id}}", acc);
            """;
    }

    /// <summary>?:, &amp;&amp;, || and ?? with awaits on the right; the left sides log when evaluated.</summary>
    private string ShortCircuits(int id, Func<string> I)
    {
        var b = $"b{id}";
        return $$"""
            bool {{b}} = Flow.Note(t, "l{{id}}", {{Condition()}}) && (await {{I()}}) > {{random.Next(0, 8)}};
            {{b}} = {{b}} || Flow.Note(t, "m{{id}}", {{Condition()}}) || await Fuzz.Later(acc % 2 == 0);
            acc += ({{Condition()}}) ? await {{I()}} : acc % 7 - await {{I()}};
            acc += {{b}} ? (Flow.Note(t, "r{{id}}", true) ? await {{I()}} : 0) : (await Fuzz.Now(acc) > 3 ? 1 : await {{I()}});
            if (Flow.Note(t, "p{{id}}", {{Condition()}}) || (await {{I()}}) % 2 == 0 && !(await Fuzz.Later({{b}})))
                t.Log("sc{{id}}", acc);
            int? n{{id}} = {{Condition()}} ? null : acc;
            acc += n{{id}} ?? await {{I()}};
            string? z{{id}} = {{Condition()}} ? null : "z";
            t.Log("sz{{id}}", z{{id}}?.Length ?? await Fuzz.Now(-1));
            t.Log("sb{{id}}", {{b}});
            """;
    }

    /// <summary>
    /// Compound assignments with an await on the right, whose target is read before the await: through
    /// getters, setters and indexers that log, ??=, a[i++], struct array elements and tuple fields.
    /// </summary>
    private string CompoundAssignments(int id, Func<string> I)
    {
        var box = $"box{id}";
        var arr = $"arr{id}";
        var k = $"k{id}";
        var lines = new List<string>
        {
            $"var {box} = new Box(t);",
            $"var {arr} = new int[] {{ 1, 2, 3, 4 }};",
            $"int {k} = acc & 1;",
        };
        Func<string>[] shapes =
        [
            () => $"{arr}[{k}++] += await {I()};",
            () => $"{arr}[{k}++ & 3] -= await {I()} * 2;",
            () => $"{box}.Prop += await {I()};",
            () => $"{box}.Self(\"p\").Prop *= await {I()};",
            () => $"{box}[{box}.Index({k}++)] += await {I()};",
            () => $"{box}.Text ??= await Fuzz.Later(\"t\" + acc);",
            () => $"{box}.Text ??= await Fuzz.Now(\"never\");",
            () => $"{box}.Maybe ??= await {I()};",
            () => $"{box}.Maybe += await {I()};",
            () => $"{box}.Inner ??= new Box(t);\n{box}.Inner.Prop += await {I()};",
            () => $"({box}.Inner ?? {box}).Field <<= await Fuzz.Now(2);",
            () => $"{box}.Wide += await Fuzz.Later((long)acc << 20);",
            () => $"{box}.Self(\"f\").Field += {box}.Self(\"g\").Field + await {I()};",
            () =>
            {
                var u = NextId();
                return $"var ps{u} = new IntAndLong[2];\nps{u}[{k} & 1].A += await {I()};\nps{u}[{k} & 1].B -= await Fuzz.Later(3L);\nt.Log(\"ps{u}\", ps{u}[0] + \",\" + ps{u}[1]);";
            },
            () =>
            {
                var u = NextId();
                return $"var tu{u} = (acc, \"x\");\ntu{u}.Item1 += await {I()};\ntu{u}.Item2 += await Fuzz.Now(\"y\");\nt.Log(\"tu{u}\", tu{u});";
            },
            () => $"acc += {arr}[{k}] + await {I()} * {arr}[{k} & 3];",
            () => $"{arr}[await Fuzz.Now({k} & 3)] = await {I()};",
            () => $"{box}[await Fuzz.Later({k})] *= {box}[{k}] + await {I()};",
        ];
        var count = random.Next(2, 6);
        for (int i = 0; i < count; i++)
            lines.Add(Pick(shapes)());
        lines.Add($"t.Log(\"cb{id}\", {box} + \"|\" + string.Join(\",\", {arr}) + \"|\" + {k});");
        lines.Add($"acc = unchecked(acc + {arr}[0] + {box}.Field);");
        return string.Join("\n", lines);
    }

    /// <summary>ref locals to array elements, used before an await and taken again after it (a ref local cannot live across one).</summary>
    private string RefLocals(int id, Func<string> S, Func<string> I) => $$"""
        var ra{{id}} = new int[] { acc, acc + 1, acc + 2 };
        var rs{{id}} = new IntAndLong[3];
        {
            ref int r{{id}} = ref ra{{id}}[acc & 1];
            r{{id}} += 10;
            ref IntAndLong q{{id}} = ref rs{{id}}[acc % 3];
            q{{id}}.A++;
            q{{id}}.B = r{{id}};
        }
        {{S()}}
        int got{{id}} = await {{I()}};
        {
            ref int r{{id}} = ref ra{{id}}[(acc + got{{id}}) % 3];
            r{{id}} = r{{id}} * 2 + got{{id}};
            ref IntAndLong q{{id}} = ref rs{{id}}[got{{id}} % 3];
            q{{id}}.A += got{{id}};
        }
        {{S()}}
        for (int ri{{id}} = 0; ri{{id}} < 3; ri{{id}}++)
        {
            int add{{id}} = await {{I()}};
            ref int e{{id}} = ref ra{{id}}[ri{{id}}];
            e{{id}} -= add{{id}};
        }
        t.Log("ref{{id}}", string.Join(",", ra{{id}}) + "|" + string.Join(",", rs{{id}}));
        """;

    /// <summary>A finally that awaits and then throws replaces the exception in flight; the catches show which one arrived.</summary>
    private string FinallyReplacesException(int id, Func<string> S) => $$"""
        try
        {
            try
            {
                {{S()}}
                throw new AltException({{id}}, "first");
            }
            finally
            {
                t.Log("fr{{id}}", acc);
                {{S()}}
                if ({{Condition()}}) throw new SubAltException({{id}});
                {{S()}}
                if ({{Condition()}}) throw new FuzzException({{id}});
            }
        }
        catch (SubAltException x{{id}}) when ({{NotedFilter($"x{id}.Code > 0")}})
        {
            t.Log("frs{{id}}", Fuzz.Describe(x{{id}}));
            {{S()}}
        }
        catch (AltException x{{id}})
        {
            t.Log("fra{{id}}", Fuzz.Describe(x{{id}}));
            try { {{S()}} throw; }
            catch (Exception y{{id}}) { t.Log("frr{{id}}", Fuzz.Describe(y{{id}})); }
        }
        catch (FuzzException x{{id}})
        {
            t.Log("frf{{id}}", Fuzz.Describe(x{{id}}));
        }
        """;

    /// <summary>Catch clauses ordered by type, filtered or not, the exception's type chosen by acc, thrown or from another thread.</summary>
    private string CatchOrdering(int id, Func<string> S) => $$"""
        try
        {
            {{S()}}
            switch ((acc + {{random.Next(5)}}) % 5)
            {
                case 0: throw new SubAltException({{id}});
                case 1: throw new AltException({{id}});
                case 2: throw new FuzzException({{id}});
                case 3: acc += await Fuzz.FailFromOtherThread({{id}}); break;
                default: throw new InvalidOperationException("op" + {{id}});
            }
        }
        catch (SubAltException x{{id}}) when ({{NotedFilter($"x{id}.Code % 2 == {random.Next(2)}")}})
        {
            t.Log("co1_{{id}}", Fuzz.Describe(x{{id}}));
            {{S()}}
        }
        catch (AltException x{{id}})
        {
            t.Log("co2_{{id}}", Fuzz.Describe(x{{id}}));
            {{S()}}
            if ({{Condition()}}) throw;
        }
        catch (FuzzException x{{id}}) when ({{NotedFilter($"x{id}.Code % 2 == {random.Next(2)}")}})
        {
            t.Log("co3_{{id}}", Fuzz.Describe(x{{id}}));
        }
        catch (Exception x{{id}}) when (x{{id}} is not AltException)
        {
            t.Log("co4_{{id}}", Fuzz.Describe(x{{id}}));
            {{S()}}
        }
        """;

    /// <summary>
    /// A callee throws through its own finally, before or after suspending (or without awaiting at
    /// all), under a caller's filter that prints what the finally wrote: classic async has run the
    /// finally by the time the filter runs. The callee calls nothing but awaits, so the filter's
    /// first pass reaches the caller with the callee's frame still on the stack, unless the rewriter
    /// ends it in between.
    /// </summary>
    private string ThrowThroughFinallyUnderFilter(int id, Func<string> S)
    {
        var before = Pick(["await Task.CompletedTask;", "k += await Task.FromResult(0);", "k += await new ValueTask<int>(0);", "await Task.Yield();", ""]);
        return $$"""
            var seen{{id}} = new int[1];
            static async Task<int> thrower{{id}}(int k, int[] seen)
            {
                try
                {
                    {{before}}
                    if (k % 2 == 0) throw new InvalidOperationException("thrown");
                    return k;
                }
                finally
                {
                    seen[0] += 1 + k;
                }
            }
            for (int q{{id}} = 0; q{{id}} < 2; q{{id}}++)
            {
                try
                {
                    acc += await thrower{{id}}(q{{id}}, seen{{id}});
                }
                catch (InvalidOperationException x{{id}}) when (Flow.Note(t, "tw{{id}}_" + seen{{id}}[0], x{{id}}.Message.Length > 1))
                {
                    t.Log("tc{{id}}", x{{id}}.Message);
                    {{S()}}
                }
            }
            """;
    }

    /// <summary>A filter reading a local the try changed around suspensions, on an exception from a call that suspended.</summary>
    private string FilterAfterSuspension(int id, Func<string> S, Func<string> I) => $$"""
        int fc{{id}} = 0;
        try
        {
            fc{{id}}++;
            acc += await {{I()}};
            {{S()}}
            fc{{id}}++;
            if ({{Condition()}}) throw new AltException(fc{{id}});
            acc += await {{I()}};
        }
        catch (Exception x{{id}}) when (Flow.Note(t, "fc{{id}}_" + fc{{id}} + Fuzz.Describe(x{{id}}), fc{{id}} > 0))
        {
            fc{{id}} += 10;
            t.Log("fcc{{id}}", fc{{id}});
            {{S()}}
        }
        finally
        {
            t.Log("fcf{{id}}", fc{{id}});
        }
        """;
}
