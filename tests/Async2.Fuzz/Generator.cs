using System.Collections.Immutable;

namespace Async2.Fuzz;

/// <summary>What a user of the fuzzer may change about the generated programs.</summary>
/// <param name="TryDepth">
/// How deep the nested try/catch/finally shapes of Generator.ControlFlow go (each is two to this many
/// levels, inside whatever the tree around it nests). Every level adds resume points inside every
/// enclosing protected region, and the optimizing JIT's time on the rewritten method grows faster
/// than the depth: the slowest method of 50 programs took 0.3–1 s at 4, up to 5 s at 6 or 8.
/// </param>
public sealed record GeneratorOptions(int TryDepth = 4)
{
    public static GeneratorOptions Default { get; } = new();
}

/// <summary>
/// Generates one random case from a seed: a few static async methods calling each other (recursion
/// and mutual recursion bounded by the fuel d), optionally a class hierarchy with overrides, an
/// interface implemented by a struct and a class, and a generic class; each method a random mix of
/// the model's features, some kept classic with [RuntimeAsyncMethodGeneration(false)].
/// </summary>
public sealed partial class Generator
{
    private readonly Random random;
    private readonly GeneratorOptions options;
    private readonly List<Method> statics = [];
    private readonly bool hasHierarchy, hasInterface, hasHolder;
    private ReturnKind areaReturns, growReturns;
    private int nextId;

    /// <summary>Statements left for the method being generated: keeps cases small enough to read and to reduce quickly.</summary>
    private int budget;

    /// <summary>The method whose body is being generated, for base calls and generic tags.</summary>
    private Method? current;

    private Generator(int seed, GeneratorOptions options)
    {
        random = new Random(seed);
        this.options = options;
        hasHierarchy = Chance(0.35);
        hasInterface = Chance(0.35);
        hasHolder = Chance(0.2);
    }

    public static Case Generate(int seed) => Generate(seed, GeneratorOptions.Default);

    public static Case Generate(int seed, GeneratorOptions options) => new Generator(seed, options).GenerateCase(seed);

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
                    var kind = inCatch && Chance(0.5) ? Pick([JumpKind.Rethrow, JumpKind.Rethrow, JumpKind.ThrowCaught])
                        : inLoop && Chance(0.6) ? Pick([JumpKind.Break, JumpKind.Continue])
                        : Chance(0.25) ? JumpKind.GotoEnd
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
        if (Chance(0.2))
            catches.Add(new Catch(NextId(), "SubAltException", Chance(0.4) ? NotedFilter("$e.Code % 2 == 0") : null, Nested(handler: true)));
        if (Chance(0.25))
            catches.Add(new Catch(NextId(), "AltException", Chance(0.4) ? NotedFilter("$e.Code % 3 != 1") : null, Nested(handler: true)));
        if (Chance(0.5))
            catches.Add(new Catch(NextId(), "FuzzException", NotedFilter($"$e.Code % {random.Next(2, 4)} == {random.Next(0, 2)}"), Nested(handler: true)));
        if (Chance(0.3))
            catches.Add(new Catch(NextId(), "OperationCanceledException", null, Nested(handler: true)));
        if (Chance(0.3))
            catches.Add(new Catch(NextId(), "FuzzException", null, Nested(handler: true)));
        if (Chance(0.5))
            catches.Add(new Catch(NextId(), "Exception", Chance(0.3) ? NotedFilter("acc % 2 == 0") : null, Nested(handler: true)));
        var hasFinally = catches.Count == 0 || Chance(0.4);
        return new Try(body, catches.ToImmutable(), hasFinally ? Nested() : null);
    }

    private Statement GenerateLeaf()
    {
        var id = NextId();
        var c = random.Next(1, 10);
        switch (random.Next(25 + ControlFlowWeight))
        {
            case 0: return new Leaf($"t.Log(\"s{id}\", acc);");
            case 1: return new Leaf($"acc = unchecked(acc * {c + 1} + {id});");
            case 2: return new Leaf("await Task.Yield();");
            case 3: return new Leaf(Pick(["await Task.CompletedTask;", $"acc += await Task.FromResult({c});", $"acc += await new ValueTask<int>({c});", "await default(ValueTask);"]));
            case 4: return new Leaf($"acc += await Fuzz.FromOtherThread({c}, {(Chance(0.5) ? "true" : "false")});");
            case 5 or 6: return ThrowingLeaf(id);
            case 7: return new Leaf(Chance(0.5) ? $"Local.Value = acc % 100 + {id};" : $"t.Log(\"local{id}\", Local.Value);");
            case 8: return new Leaf(Pick(["await Task.CompletedTask.ConfigureAwait(ConfigureAwaitOptions.ForceYielding);", $"acc += await Fuzz.FromOtherThread({c}, false).ConfigureAwait(false);"]));
            case 9 or 10 or 11: return CallStatement();
            case 12: return DeferredCall(id);
            case 13: return Concurrent(id);
            case 14 when hasHierarchy: return VirtualCall();
            case 15 when hasInterface: return InterfaceCall(c);
            case 16 when hasHolder: return new Leaf($"acc += await new Holder<{Pick(["int", "string"])}>().Run(t, d - 1, acc);");
            case 17 when current is { Owner: "Holder" }: return new Leaf("t.Log(\"item\", Item);");
            case 17 when current is { Generic: true }: return new Leaf("t.Log(\"tag\", tag);");
            case 18 when current is { Owner: "Square" or "Cube" } && !(current is { Owner: "Square", Name: "Area" }): return new Leaf($"acc += await base.{current.Name}(t, d - 1, acc);");
            case 19: return new Leaf("await Task.Yield();");
            case 20 or 21: return AwaitInExpression(id, c);
            case 22 or 23 or 24: return JoinAcrossAwait(id, c);
            case >= 25: return ControlFlow(id);
            default: return new Leaf($"t.Log(\"s{id}\", acc);");
        }
    }

    /// <summary>An exception, sometimes: thrown before any suspension, from a faulted or canceled task, or after a suspension on another thread.</summary>
    private Leaf ThrowingLeaf(int id) => random.Next(9) switch
    {
        0 => new($"if ({Condition()}) throw new FuzzException({id});"),
        1 => new($"if ({Condition()}) acc += await Fuzz.Faulted({id});"),
        2 => new($"if ({Condition()}) acc += await Fuzz.FailFromOtherThread({id});"),
        3 => new($"if ({Condition()}) acc += await Task.FromCanceled<int>(new CancellationToken(true));"),
        4 => new($"await Task.Yield();\nif ({Condition()}) throw new FuzzException({id});"),
        6 => new($"if ({Condition()}) throw new AltException({id});"),
        7 => new($"await Task.Yield();\nif ({Condition()}) throw new SubAltException({id});"),
        8 => new($"if ({Condition()}) acc += await Task.FromException<int>(new SubAltException({id}));"),
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

    /// <summary>
    /// A value computed before an await and still on the evaluation stack when it happens (a left
    /// operand, an earlier argument, a receiver, an array and index to store into), whose static type
    /// comes from a join: a conditional, <c>??</c> or switch expression whose arms have different types
    /// (small integers and an int, float and double, sealed classes with a common base, a base and its
    /// sealed derived class, interface implementations, string[] and object[]), or arithmetic and
    /// values of every stack type (float32, long, nint, decimal, nullables, enums, tuples, structs,
    /// generic T). Optimized runtime-async IL leaves such values on the stack, and the rewriter spills
    /// them into locals typed by its stack-type analysis: typed by one arm only, a byte truncated 300
    /// to 44, a local typed as the sealed Dog let the optimizing JIT call Dog's override on a Cat, and
    /// float32 arithmetic spilled as float64 lost its rounding. Each shape runs twice with f true, then
    /// false, so both arms are taken, and prints what a wrong type changes: the value, GetType().Name,
    /// an override's result, type tests, floats round-tripped ("R").
    /// </summary>
    private Leaf JoinAcrossAwait(int id, int c)
    {
        var calls = new List<string>();
        var f = $"f{id}";
        var log = $"t.Log(\"j{id}\", ";
        // An int awaited, sometimes from a call of the case (so the await really suspends, and nests).
        string I()
        {
            var (code, called) = IntAwaitable();
            calls.AddRange(called);
            return code;
        }
        // An awaitable of another type: completed, after a yield, or completed on another thread.
        string A(string type, string value) => Pick([$"Fuzz.Now<{type}>({value})", $"Fuzz.Later<{type}>({value})", $"Fuzz.Elsewhere<{type}>({value})", $"new ValueTask<{type}>({value})"]);
        // Either arm order: a join typed by its first or by its last arm shows in one of them.
        string Cond(string a, string b) => Chance(0.5) ? $"{f} ? {a} : {b}" : $"!{f} ? {b} : {a}";

        // Small integers joined with an int out of their range, or with each other (the join is int).
        var small = Pick<(string Type, string Wide)>([("byte", "300"), ("byte", "-1"), ("sbyte", "200"), ("sbyte", "-129"), ("short", "100_000"), ("short", "-40_000"), ("ushort", "-1"), ("ushort", "70_000"), ("char", "-1"), ("char", "65_536")]);
        var v = $"v{id}";
        var declareSmall = $"{small.Type} {v} = unchecked(({small.Type})(acc * 37 + {c}));";
        var other = Pick(["byte", "sbyte", "short", "ushort", "char"]);
        var w = $"w{id}";
        var declareOther = $"{other} {w} = unchecked(({other})(acc * -53 - {c}));";
        // Floats from acc, so the same shape computes different values at different depths.
        var p = $"p{id}";
        var q = $"q{id}";
        var declareFloats = $"float {p} = acc / 10f, {q} = 0.1f * {c};";
        var o = $"o{id}";

        var code = random.Next(31) switch
        {
            0 => $"{declareSmall}\n{log}({Cond(small.Wide, v)}) + await {I()});",
            1 => $"{declareSmall}\n{log}Fuzz.Mix({Cond(small.Wide, v)}, await {I()}, acc));",
            2 => $"{declareSmall}\n{declareOther}\n{log}Fuzz.Pair<int>({Cond(v, w)}, await {I()}));",
            3 => $"{declareSmall}\n{log}(((acc + j{id}) % 3) switch {{ 0 => {v}, 1 => {small.Wide}, _ => acc }}) - await {I()});",
            4 => $"bool b{id} = acc % 3 == 0;\n{log}({Cond($"b{id}", $"!b{id}")}) ^ await {A("bool", "true")});\n{log}Fuzz.Pair({Cond($"b{id}", "acc > 5")}, await {I()}));",
            // Enums over byte, sbyte and long: joined with their own constants, or with ints after a cast.
            5 => $"Small s{id} = (Small)unchecked((byte)acc);\n{log}(int)({Cond("Small.B", $"s{id}")}) + await {I()});\n{log}Fuzz.Pair({Cond($"s{id}", "Small.B")}, await {I()}));",
            6 => $"Small s{id} = (Small)unchecked((byte)(acc * 3));\n{log}({Cond("(int)Small.B + 100", $"(int)s{id}")}) + await {I()});",
            7 => $"Tiny y{id} = (Tiny)unchecked((sbyte)acc);\n{log}unchecked(({Cond($"y{id}", "Tiny.High")}) - (sbyte)await {I()}));",
            8 => $"Wide e{id} = (Wide)((long)acc << 36);\n{log}(long)({Cond("Wide.B", $"e{id}")}) + await {A("long", "(long)acc")});\n{log}({Cond($"e{id}", "Wide.A")}) | await {A("Wide", "Wide.B")});",
            // float32 arithmetic stays float32 after the await; a float joined with a double is a double.
            9 => $"{declareFloats}\nfloat r{id} = ({p} + {q}) * await {A("float", "3f")} - 0.3f;\n{log}r{id}.ToString(\"R\"));\n{log}({p} + {q}) * await {A("float", "3f")} == ({p} + {q}) * 3f);",
            10 => $"{declareFloats}\n{log}(-({p} * 3f) + await {A("float", "0.3f")}).ToString(\"R\"));\ndouble m{id} = ({p} + 0.2) * await {A("float", "3f")};\n{log}m{id}.ToString(\"R\"));",
            11 => $"{declareFloats}\ndouble x{id} = acc / 10.0 + 0.1;\n{log}(({Cond(p, $"x{id}")}) * await {A("double", "3.0")}).ToString(\"R\"));\n{log}(({Cond(q, "1e300")}) / await {A("float", "3f")}).ToString(\"R\"));",
            12 => $"{declareFloats}\n{log}Fuzz.Pair({Cond(p, $"{q} / 3f")}, await {I()}));\n{log}((((acc + j{id}) % 3) switch {{ 0 => {p}, 1 => 0.1, _ => {q} }}) * await {A("float", "3f")}).ToString(\"R\"));",
            // The other stack types: int64 (long, ulong, a uint widened), native int, decimal.
            13 => $"uint u{id} = unchecked((uint)acc * 2654435761u);\n{log}({Cond("-5L", $"u{id}")}) + await {A("long", "0L")});\n{log}({Cond("ulong.MaxValue - (ulong)(uint)acc", $"u{id}")}) / await {A("ulong", "3UL")});",
            14 => $"long l{id} = (long)acc << 33;\n{log}({Cond($"l{id}", "acc")}) * await {A("long", "3L")});",
            15 => $"nint n{id} = (nint)acc << 40;\nnuint z{id} = (nuint)(uint)acc;\n{log}({Cond($"n{id}", "acc")}) + await {A("nint", "(nint)1")});\n{log}({Cond($"z{id}", "7u")}) * await {A("nuint", "(nuint)3")});",
            16 => $"decimal m{id} = acc / 8m;\n{log}({Cond($"m{id}", "acc")}) * await {A("decimal", "1.5m")});\n{log}Fuzz.Pair({Cond("0.1m", $"m{id}")}, await {I()}));",
            // Nullables: lifted arithmetic, a nullable argument, and ?? joining a small integer with an int.
            17 => $"{declareSmall}\n{log}({Cond("(int?)null", v)}) + await {I()});\n{log}Fuzz.Pair({Cond($"({small.Type}?)null", v)}, await {I()}));",
            18 => $"{small.Type}? k{id} = {f} ? null : unchecked(({small.Type})(acc * 37 + {c}));\n{log}(k{id} ?? {small.Wide}) + await {I()});",
            // Classes: sealed arms with a common base, base and derived, interface implementations; as
            // arguments, receivers of virtual calls, and through ?? and switch expressions.
            19 => $"{log}Fuzz.Hear({Cond("new Cat()", "new Dog()")}, await {I()}));\n{log}Fuzz.Show({Cond("null", "new Dog()")}, await {I()}));",
            20 => $"{log}({Cond("(Animal)new Cat()", "new Dog()")}).Say(await {I()}));",
            21 => $"FancyWidget? maybe{id} = {f} ? new FancyWidget() : null;\n{log}Fuzz.Paint(maybe{id} ?? Fuzz.Plain, await {I()}));\n{log}({Cond("new Widget()", "new FancyWidget()")}).Draw(await {I()}));",
            22 => $"IVoice voice{id} = new Robot();\n{log}Fuzz.Listen({Cond("new Robot()", "new Cat()")}, await {I()}));\n{log}Fuzz.Show({Cond($"voice{id}", "new Dog()")}, await {I()}));\n{log}({Cond("(IVoice)new Robot()", "new Dog()")}).Speak(await {I()}));",
            23 => $"{log}Fuzz.Show(((acc + j{id}) % 3) switch {{ 0 => new Cat(), 1 => new Dog(), _ => null }}, await {I()}));\n{log}Fuzz.Hear(((acc + j{id}) % 2) switch {{ 0 => new Dog(), _ => new Cat() }}, await {I()}));\n{log}Fuzz.Show({Cond("(object)acc", "\"text\"")}, await {I()}));",
            // Arrays: covariant string[] and object[] (storing an int into the string[] throws), and an
            // array and index left on the stack for a store, plain and compound.
            24 => $"string[] names{id} = {{ \"x\", \"y\" }};\nobject[] {o} = {{ 1, 2 }};\n{log}Fuzz.Show({Cond($"names{id}", o)}, await {I()}));\n"
                + $"try {{ ({Cond($"names{id}", o)})[j{id}] = await {A("object", $"j{id} == 0 ? acc : \"s\" + acc")}; }}\ncatch (ArrayTypeMismatchException) {{ {log}\"mismatch\"); }}\n"
                + $"{log}string.Join(\",\", names{id}) + \"/\" + string.Join(\",\", {o}));",
            25 => $"byte[] bytes{id} = new byte[2];\nint[] ints{id} = {{ acc, -acc }};\n({Cond($"bytes{id}", "new byte[2]")})[{Cond("0", "1")}] = unchecked((byte)(await {I()} * 37));\n"
                + $"ints{id}[{Cond("0", "1")}] += await {I()};\n{log}string.Join(\",\", bytes{id}) + \"/\" + string.Join(\",\", ints{id}));",
            // Tuples and structs: as arguments, and a struct (a local, an array element) mutated by a call whose argument awaits.
            26 => $"{log}Fuzz.Pair({Cond("(acc, \"a\")", "(-1, \"b\")")}, await {I()}));\n{log}Fuzz.Pair({Cond("new Tally { Count = acc }", "default(Tally)")}, await {I()}));",
            27 => $"var tally{id} = new Tally();\ntally{id}.Bump(await {I()});\ntally{id}.Bump(acc);\nvar tallies{id} = new Tally[2];\ntallies{id}[{Cond("0", "1")}].Bump(await {I()});\n"
                + $"{log}tally{id} + \" \" + tallies{id}[0] + \" \" + tallies{id}[1]);",
            28 => $"var cell{id} = new Cell {{ Value = acc }};\n({Cond($"cell{id}", "new Cell()")}).Value += await {I()};\ncell{id}.Low += unchecked((byte)(await {I()} * 97));\n{log}cell{id}.Value + \"/\" + cell{id}.Low);",
            // Sealed classes whose common base is generic: Keeper<int>, or Keeper<U> of a generic local function's U.
            29 => $"{log}({Cond("(Keeper<int>)new IntKeeper()", "new AnyKeeper<int>()")}).Keep(await {I()}));\n{log}Fuzz.Kept<int>({Cond("new AnyKeeper<int>()", "new IntKeeper()")}, await {I()}));\n"
                + $"static async Task<string> keep{id}<U>(U a, bool f) => Fuzz.Kept<U>(f ? new AnyKeeper<U>() : new LastKeeper<U>(), await Fuzz.Later(a)) + (f ? (Keeper<U>)new LastKeeper<U>() : new AnyKeeper<U>()).Keep(await Fuzz.Now(a));\n"
                + $"{log}await keep{id}({Pick(["acc", "\"s\"", "Small.B", "0.1f", "new Cat()"])}, {f}));",
            _ => GenericJoin(id, f, log),
        };
        // Half the results are logged directly, half stored in a local first: with the trace and label
        // below it on the stack, a join's branches reach it in another order than with an empty stack
        // (a join typed by the first branch to arrive, as the rewriter's was, shows in one of the two).
        var logged = 0;
        var lines = code.Split('\n').SelectMany(line =>
            line.StartsWith(log) && line.EndsWith(");") && Chance(0.5)
                ? [$"var r{id}_{++logged} = {line[log.Length..^2]};", $"{log}r{id}_{logged});"]
                : new[] { line });
        var body = string.Join("\n", lines.Select(line => "    " + line));
        return new($"for (int j{id} = 0; j{id} < 2; j{id}++)\n{{\n    var {f} = j{id} == 0;\n{body}\n}}", [.. calls]);
    }

    /// <summary>
    /// Generic values across an await: in a generic local function (class-constrained with reference
    /// type arguments, struct-constrained with value type arguments, unconstrained with either), the
    /// generic method's tag, or the holder's item.
    /// </summary>
    private string GenericJoin(int id, string f, string log)
    {
        var g = $"g{id}";
        switch (random.Next(current is { Generic: true } or { Owner: "Holder" } ? 4 : 3))
        {
            case 0:
                var (classArgument, a, b) = Pick<(string, string, string)>([("Animal", "new Cat()", "new Dog()"), ("object", "\"text\"", "new Robot()"), ("IVoice", "new Robot()", "new Cat()"), ("string", "\"one\"", "\"two\"")]);
                return $"static async Task<string> {g}<U>(U a, U b, bool f) where U : class =>\n    Fuzz.Show(f ? a : b, await Fuzz.Later(1)) + Fuzz.Show(f ? a : null, await Fuzz.Now(2)) + Fuzz.Show(a ?? b, await Fuzz.Elsewhere(3));\n"
                    + $"{log}await {g}<{classArgument}>({a}, {b}, {f}));";
            case 1:
                var (structArgument, value) = Pick<(string, string)>([("byte", "(byte)200"), ("Small", "Small.B"), ("float", "0.1f"), ("long", "1L << 40"), ("Tally", "new Tally { Count = 3, Sum = -4 }"), ("(int, string)", "(7, \"seven\")")]);
                return $"static async Task<string> {g}<U>(U a, bool f) where U : struct =>\n    Fuzz.Pair(f ? a : default, await Fuzz.Later(1)) + Fuzz.Show(f ? (object)a : \"none\", await Fuzz.Now(2)) + Fuzz.Pair((U?)a, await Fuzz.Elsewhere(3));\n"
                    + $"{log}await {g}<{structArgument}>({value}, {f}));";
            case 2:
                var (first, second) = Pick<(string, string)>([("acc", "-1"), ("\"s\"", "\"t\""), ("(Animal)new Dog()", "new Cat()"), ("0.1", "acc / 3.0")]);
                return $"static async Task<string> {g}<U>(U a, U b, bool f) => Fuzz.Pair(f ? a : b, await Fuzz.Later(1)) + Fuzz.Show(f ? a : b, await Fuzz.Now(2));\n"
                    + $"{log}await {g}({first}, {second}, {f}));";
            default:
                var item = current!.Generic ? "tag" : "Item";
                return $"{log}Fuzz.Pair({f} ? {item} : default!, await Fuzz.Later(acc)) + Fuzz.Show({item}, await Fuzz.Now(1)));";
        }
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
