// A tiny scripting language (let, fn closures, if/while, return, try/catch, lists) parsed by
// a synchronous recursive-descent parser into an AST of records, evaluated by an async-all-the-way
// evaluator: a generic visitor IVisitor<T> whose Visit methods return ValueTask<T>, dispatched by
// a generic virtual Accept<T>; values are a readonly struct (Value) carried across awaits;
// closures capture environments; `return` travels as an exception through async frames; runtime
// errors are caught at the REPL level with filters; a second visitor (the printer, T = string)
// and a third (a cost estimator, T = int) share the same dispatch.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Text;
using System.Threading.Tasks;

enum VKind { Nil, Num, Str, Bool, Fn, List }

readonly struct Value
{
    public readonly VKind Kind;
    public readonly double Num;
    public readonly object? Ref;
    public Value(double n) { Kind = VKind.Num; Num = n; Ref = null; }
    public Value(string s) { Kind = VKind.Str; Num = 0; Ref = s; }
    public Value(bool b) { Kind = VKind.Bool; Num = b ? 1 : 0; Ref = null; }
    public Value(Closure f) { Kind = VKind.Fn; Num = 0; Ref = f; }
    public Value(List<Value> l) { Kind = VKind.List; Num = 0; Ref = l; }
    public static readonly Value Nil = default;
    public bool Truthy => Kind switch { VKind.Nil => false, VKind.Bool or VKind.Num => Num != 0, _ => true };
    public override string ToString() => Kind switch
    {
        VKind.Nil => "nil",
        VKind.Num => Num.ToString(CultureInfo.InvariantCulture),
        VKind.Str => (string)Ref!,
        VKind.Bool => Num != 0 ? "true" : "false",
        VKind.Fn => $"<fn {((Closure)Ref!).Decl.Name}>",
        _ => "[" + string.Join(", ", (List<Value>)Ref!) + "]",
    };
}

sealed class ScriptError(string message) : Exception(message);
sealed class ReturnSignal(Value value) : Exception("return") { public Value Value { get; } = value; }

sealed class Env(Env? parent)
{
    private readonly Dictionary<string, Value> vars = new();
    public Value Get(string name) => vars.TryGetValue(name, out var v) ? v : parent is not null ? parent.Get(name) : throw new ScriptError($"undefined {name}");
    public void Define(string name, Value v) => vars[name] = v;
    public void Assign(string name, Value v)
    {
        if (vars.ContainsKey(name)) vars[name] = v;
        else if (parent is not null) parent.Assign(name, v);
        else throw new ScriptError($"assign to undefined {name}");
    }
}

sealed record Closure(FnDecl Decl, Env Captured);

interface IVisitor<T>
{
    ValueTask<T> Num(NumLit n);
    ValueTask<T> Str(StrLit s);
    ValueTask<T> Name(NameRef n);
    ValueTask<T> Binary(BinOp b);
    ValueTask<T> Call(CallExpr c);
    ValueTask<T> Fn(FnDecl f);
    ValueTask<T> Let(LetStmt l);
    ValueTask<T> Assign(AssignStmt a);
    ValueTask<T> If(IfStmt i);
    ValueTask<T> While(WhileStmt w);
    ValueTask<T> Block(BlockStmt b);
    ValueTask<T> Return(ReturnStmt r);
    ValueTask<T> Try(TryStmt t);
    ValueTask<T> ListLit(ListExpr l);
}

abstract record Node { public abstract ValueTask<T> Accept<T>(IVisitor<T> v); }
sealed record NumLit(double Value) : Node { public override ValueTask<T> Accept<T>(IVisitor<T> v) => v.Num(this); }
sealed record StrLit(string Value) : Node { public override ValueTask<T> Accept<T>(IVisitor<T> v) => v.Str(this); }
sealed record NameRef(string Id) : Node { public override ValueTask<T> Accept<T>(IVisitor<T> v) => v.Name(this); }
sealed record BinOp(string Op, Node L, Node R) : Node { public override ValueTask<T> Accept<T>(IVisitor<T> v) => v.Binary(this); }
sealed record CallExpr(Node Callee, List<Node> Args) : Node { public override ValueTask<T> Accept<T>(IVisitor<T> v) => v.Call(this); }
sealed record FnDecl(string Name, List<string> Params, Node Body) : Node { public override ValueTask<T> Accept<T>(IVisitor<T> v) => v.Fn(this); }
sealed record LetStmt(string Id, Node Init) : Node { public override ValueTask<T> Accept<T>(IVisitor<T> v) => v.Let(this); }
sealed record AssignStmt(string Id, Node Value) : Node { public override ValueTask<T> Accept<T>(IVisitor<T> v) => v.Assign(this); }
sealed record IfStmt(Node Cond, Node Then, Node? Else) : Node { public override ValueTask<T> Accept<T>(IVisitor<T> v) => v.If(this); }
sealed record WhileStmt(Node Cond, Node Body) : Node { public override ValueTask<T> Accept<T>(IVisitor<T> v) => v.While(this); }
sealed record BlockStmt(List<Node> Stmts) : Node { public override ValueTask<T> Accept<T>(IVisitor<T> v) => v.Block(this); }
sealed record ReturnStmt(Node? Value) : Node { public override ValueTask<T> Accept<T>(IVisitor<T> v) => v.Return(this); }
sealed record TryStmt(Node Body, string Var, Node Handler) : Node { public override ValueTask<T> Accept<T>(IVisitor<T> v) => v.Try(this); }
sealed record ListExpr(List<Node> Items) : Node { public override ValueTask<T> Accept<T>(IVisitor<T> v) => v.ListLit(this); }

sealed class Parser(string src)
{
    private readonly List<string> toks = Tokenize(src);
    private int pos;

    static List<string> Tokenize(string s)
    {
        var list = new List<string>();
        for (int i = 0; i < s.Length;)
        {
            char c = s[i];
            if (char.IsWhiteSpace(c)) { i++; continue; }
            int start = i;
            if (char.IsDigit(c)) { while (i < s.Length && (char.IsDigit(s[i]) || s[i] == '.')) i++; }
            else if (char.IsLetter(c) || c == '_') { while (i < s.Length && (char.IsLetterOrDigit(s[i]) || s[i] == '_')) i++; }
            else if (c == '"') { i++; while (s[i] != '"') i++; i++; }
            else if ("=!<>".Contains(c) && i + 1 < s.Length && s[i + 1] == '=') i += 2;
            else i++;
            list.Add(s[start..i]);
        }
        return list;
    }

    string Peek => pos < toks.Count ? toks[pos] : "";
    string Take() => toks[pos++];
    void Expect(string t) { if (Take() != t) throw new ScriptError($"expected {t} at token {pos - 1}"); }

    public List<Node> Program() { var l = new List<Node>(); while (pos < toks.Count) l.Add(Stmt()); return l; }

    Node Stmt()
    {
        switch (Peek)
        {
            case "let": Take(); { var id = Take(); Expect("="); var e = Expr(); Expect(";"); return new LetStmt(id, e); }
            case "fn": Take(); { var name = Take(); var ps = Params(); return new LetStmt(name, new FnDecl(name, ps, Stmt())); }
            case "if": { Take(); Expect("("); var c = Expr(); Expect(")"); var t = Stmt(); Node? e = null; if (Peek == "else") { Take(); e = Stmt(); } return new IfStmt(c, t, e); }
            case "while": { Take(); Expect("("); var c = Expr(); Expect(")"); return new WhileStmt(c, Stmt()); }
            case "return": { Take(); Node? e = Peek == ";" ? null : Expr(); Expect(";"); return new ReturnStmt(e); }
            case "try": { Take(); var b = Stmt(); Expect("catch"); Expect("("); var v = Take(); Expect(")"); return new TryStmt(b, v, Stmt()); }
            case "{": { Take(); var l = new List<Node>(); while (Peek != "}") l.Add(Stmt()); Take(); return new BlockStmt(l); }
            default:
                if (pos + 1 < toks.Count && toks[pos + 1] == "=" && char.IsLetter(Peek[0])) { var id = Take(); Take(); var e = Expr(); Expect(";"); return new AssignStmt(id, e); }
                { var e = Expr(); Expect(";"); return e; }
        }
    }

    List<string> Params() { Expect("("); var ps = new List<string>(); while (Peek != ")") { ps.Add(Take()); if (Peek == ",") Take(); } Take(); return ps; }

    static readonly string[][] Levels = [["==", "!=", "<", ">", "<=", ">="], ["+", "-"], ["*", "/", "%"]];

    Node Expr(int level = 0)
    {
        if (level == Levels.Length) return Postfix();
        var left = Expr(level + 1);
        while (Levels[level].Contains(Peek)) { var op = Take(); left = new BinOp(op, left, Expr(level + 1)); }
        return left;
    }

    Node Postfix()
    {
        var e = Primary();
        while (Peek == "(") { Take(); var args = new List<Node>(); while (Peek != ")") { args.Add(Expr()); if (Peek == ",") Take(); } Take(); e = new CallExpr(e, args); }
        return e;
    }

    Node Primary()
    {
        var t = Take();
        if (char.IsDigit(t[0])) return new NumLit(double.Parse(t, CultureInfo.InvariantCulture));
        if (t[0] == '"') return new StrLit(t[1..^1]);
        if (t == "(") { var e = Expr(); Expect(")"); return e; }
        if (t == "[") { var items = new List<Node>(); while (Peek != "]") { items.Add(Expr()); if (Peek == ",") Take(); } Take(); return new ListExpr(items); }
        if (t == "fn") { var ps = Params(); return new FnDecl("anon", ps, Stmt()); }
        if (char.IsLetter(t[0])) return new NameRef(t);
        throw new ScriptError($"unexpected {t}");
    }
}

sealed class Evaluator(Env globals, StringBuilder output) : IVisitor<Value>
{
    public static bool Suspend;
    private Env env = globals;
    public int Calls, MaxDepth, depth;

    static async ValueTask Tick(int n) { if (Suspend && n % 3 == 0) await Task.Yield(); }

    public ValueTask<Value> Num(NumLit n) => new(new Value(n.Value));
    public async ValueTask<Value> Str(StrLit s) { await Tick(s.Value.Length); return new Value(s.Value); }
    public async ValueTask<Value> Name(NameRef n) { await Tick(n.Id.Length); return env.Get(n.Id); }

    public async ValueTask<Value> Binary(BinOp b)
    {
        Value l = await b.L.Accept(this);
        Value r = await b.R.Accept(this);
        return (b.Op, l.Kind, r.Kind) switch
        {
            ("+", VKind.Num, VKind.Num) => new Value(l.Num + r.Num),
            ("+", VKind.Str, _) or ("+", _, VKind.Str) => new Value(l.ToString() + r),
            ("+", VKind.List, VKind.List) => new Value([.. (List<Value>)l.Ref!, .. (List<Value>)r.Ref!]),
            ("-", VKind.Num, VKind.Num) => new Value(l.Num - r.Num),
            ("*", VKind.Num, VKind.Num) => new Value(l.Num * r.Num),
            ("/", VKind.Num, VKind.Num) => r.Num == 0 ? throw new ScriptError("division by zero") : new Value(l.Num / r.Num),
            ("%", VKind.Num, VKind.Num) => new Value(l.Num % r.Num),
            ("==", _, _) => new Value(l.Kind == r.Kind && l.ToString() == r.ToString()),
            ("!=", _, _) => new Value(!(l.Kind == r.Kind && l.ToString() == r.ToString())),
            ("<", VKind.Num, VKind.Num) => new Value(l.Num < r.Num),
            (">", VKind.Num, VKind.Num) => new Value(l.Num > r.Num),
            ("<=", VKind.Num, VKind.Num) => new Value(l.Num <= r.Num),
            (">=", VKind.Num, VKind.Num) => new Value(l.Num >= r.Num),
            _ => throw new ScriptError($"bad operands {l.Kind} {b.Op} {r.Kind}"),
        };
    }

    public async ValueTask<Value> Call(CallExpr c)
    {
        bool isBuiltin = c.Callee is NameRef { Id: "print" or "len" or "at" or "push" or "error" or "map" };
        Value callee = isBuiltin ? Value.Nil : await c.Callee.Accept(this);
        var args = new Value[c.Args.Count];
        for (int i = 0; i < args.Length; i++) args[i] = await c.Args[i].Accept(this);
        if (callee.Kind != VKind.Fn)
        {
            if (isBuiltin && await Builtin(((NameRef)c.Callee).Id, args) is { } result) return result;
            throw new ScriptError($"not callable: {callee}");
        }
        var closure = (Closure)callee.Ref!;
        if (closure.Decl.Params.Count != args.Length) throw new ScriptError($"{closure.Decl.Name} wants {closure.Decl.Params.Count} args");
        var saved = env;
        env = new Env(closure.Captured);
        for (int i = 0; i < args.Length; i++) env.Define(closure.Decl.Params[i], args[i]);
        Calls++;
        MaxDepth = Math.Max(MaxDepth, ++depth);
        try
        {
            await closure.Decl.Body.Accept(this);
            return Value.Nil;
        }
        catch (ReturnSignal r)
        {
            return r.Value;
        }
        finally
        {
            depth--;
            env = saved;
        }
    }

    async ValueTask<Value?> Builtin(string name, Value[] args)
    {
        await Tick(name.Length);
        switch (name)
        {
            case "print":
                output.AppendLine(string.Join(" ", args));
                return Value.Nil;
            case "len" when args is [{ Kind: VKind.List, Ref: List<Value> l }]:
                return new Value(l.Count);
            case "len" when args is [{ Kind: VKind.Str, Ref: string s }]:
                return new Value(s.Length);
            case "at" when args is [{ Ref: List<Value> l }, { Kind: VKind.Num, Num: var i }]:
                return i >= 0 && i < l.Count ? l[(int)i] : throw new ScriptError($"index {i} out of range");
            case "push" when args is [{ Ref: List<Value> l }, var item]:
                l.Add(item);
                return new Value(l.Count);
            case "error":
                throw new ScriptError(args.Length > 0 ? args[0].ToString() : "error");
            case "map" when args is [{ Ref: List<Value> l }, { Kind: VKind.Fn } f]:
                {
                    var mapped = new List<Value>();
                    foreach (var item in l)
                        mapped.Add(await Call(new CallExpr(new Quote(f), [new Quote(item)])));
                    return new Value(mapped);
                }
            default:
                return null;
        }
    }

    // A literal holding an already evaluated value, so builtins can call closures through Call.
    sealed record Quote(Value V) : Node { public override ValueTask<T> Accept<T>(IVisitor<T> v) => v is Evaluator ? (ValueTask<T>)(object)new ValueTask<Value>(V) : throw new NotSupportedException(); }

    public ValueTask<Value> Fn(FnDecl f) => ValueTask.FromResult(new Value(new Closure(f, env)));

    public async ValueTask<Value> Let(LetStmt l)
    {
        if (l.Init is FnDecl) env.Define(l.Id, Value.Nil); // allow recursion
        env.Define(l.Id, await l.Init.Accept(this));
        return Value.Nil;
    }

    public async ValueTask<Value> Assign(AssignStmt a) { env.Assign(a.Id, await a.Value.Accept(this)); return Value.Nil; }

    public async ValueTask<Value> If(IfStmt i) =>
        (await i.Cond.Accept(this)).Truthy ? await i.Then.Accept(this) : i.Else is null ? Value.Nil : await i.Else.Accept(this);

    public async ValueTask<Value> While(WhileStmt w)
    {
        int guard = 0;
        while ((await w.Cond.Accept(this)).Truthy)
        {
            if (++guard > 1000) throw new ScriptError("loop limit");
            await w.Body.Accept(this);
        }
        return Value.Nil;
    }

    public async ValueTask<Value> Block(BlockStmt b)
    {
        var saved = env;
        env = new Env(env);
        try
        {
            Value last = Value.Nil;
            foreach (var s in b.Stmts) last = await s.Accept(this);
            return last;
        }
        finally { env = saved; }
    }

    public async ValueTask<Value> Return(ReturnStmt r) => throw new ReturnSignal(r.Value is null ? Value.Nil : await r.Value.Accept(this));

    public async ValueTask<Value> Try(TryStmt t)
    {
        var saved = env;
        try
        {
            return await t.Body.Accept(this);
        }
        catch (ScriptError e) when (e.Message != "fatal")
        {
            env = new Env(saved);
            env.Define(t.Var, new Value(e.Message));
            try { return await t.Handler.Accept(this); }
            finally { env = saved; }
        }
    }

    public async ValueTask<Value> ListLit(ListExpr l)
    {
        var items = new List<Value>(l.Items.Count);
        foreach (var item in l.Items) items.Add(await item.Accept(this));
        return new Value(items);
    }
}

sealed class CostEstimator : IVisitor<int>
{
    async ValueTask<int> Sum(IEnumerable<Node> nodes) { int s = 0; foreach (var n in nodes) s += await n.Accept(this); return s; }
    public ValueTask<int> Num(NumLit n) => new(1);
    public ValueTask<int> Str(StrLit s) => new(1);
    public ValueTask<int> Name(NameRef n) => new(1);
    public async ValueTask<int> Binary(BinOp b) => 1 + await b.L.Accept(this) + await b.R.Accept(this);
    public async ValueTask<int> Call(CallExpr c) => 5 + await c.Callee.Accept(this) + await Sum(c.Args);
    public async ValueTask<int> Fn(FnDecl f) => 2 + await f.Body.Accept(this);
    public async ValueTask<int> Let(LetStmt l) => 1 + await l.Init.Accept(this);
    public async ValueTask<int> Assign(AssignStmt a) => 1 + await a.Value.Accept(this);
    public async ValueTask<int> If(IfStmt i) => await i.Cond.Accept(this) + Math.Max(await i.Then.Accept(this), i.Else is null ? 0 : await i.Else.Accept(this));
    public async ValueTask<int> While(WhileStmt w) => 10 * (await w.Cond.Accept(this) + await w.Body.Accept(this));
    public ValueTask<int> Block(BlockStmt b) => Sum(b.Stmts);
    public async ValueTask<int> Return(ReturnStmt r) => r.Value is null ? 1 : 1 + await r.Value.Accept(this);
    public async ValueTask<int> Try(TryStmt t) => await t.Body.Accept(this) + await t.Handler.Accept(this);
    public ValueTask<int> ListLit(ListExpr l) => Sum(l.Items);
}

static class Program
{
    static readonly string[] Scripts =
    [
        "fn fib(n) { if (n < 2) return n; return fib(n - 1) + fib(n - 2); } print(fib(12));",
        "fn counter() { let c = 0; return fn() { c = c + 1; return c; }; } let a = counter(); let b = counter(); a(); a(); print(a(), b());",
        "let xs = [1, 2, 3, 4]; print(map(xs, fn(x) { return x * x; }), len(xs), len(\"hello\"));",
        "try { print(\"before\"); let z = 1 / 0; print(\"after\"); } catch (e) { print(\"caught\", e); }",
        "fn f(n) { if (n == 0) error(\"deep \" + n); return f(n - 1); } try f(25); catch (e) print(e);",
        "let i = 0; let acc = []; while (i < 7) { if (i % 2 == 0) push(acc, i); i = i + 1; } print(acc + [99]);",
        "print(undefinedThing);",
        "fn g() { return at([1,2], 5); } print(g());",
        "let s = \"x\"; while (1) { s = s + \"x\"; }",
        "print(1 +);",
        "fn mk(n) { return fn(x) { return fn(y) { return n + x + y; }; }; } print(mk(1)(2)(3), mk(\"a\")(\"b\")(\"c\"));",
        "fn fact(n) { if (n <= 1) return 1; return n * fact(n - 1); } let r = []; let k = 1; while (k < 8) { push(r, fact(k)); k = k + 1; } print(r);",
    ];

    static async Task<string> Repl(string source, Env globals, int number)
    {
        var output = new StringBuilder();
        var evaluator = new Evaluator(globals, output);
        try
        {
            var program = new Parser(source).Program();
            int cost = 0;
            var estimator = new CostEstimator();
            foreach (var stmt in program) cost += await stmt.Accept(estimator);
            foreach (var stmt in program) await stmt.Accept(evaluator);
            return $"#{number} cost={cost} calls={evaluator.Calls} depth={evaluator.MaxDepth}\n{output}";
        }
        catch (ScriptError e) when (output.Length == 0)
        {
            return $"#{number} error: {e.Message}";
        }
        catch (Exception e) when (e is ScriptError or ArgumentOutOfRangeException)
        {
            return $"#{number} error after output: {e.Message}\n{output}";
        }
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Evaluator.Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            var globals = new Env(null);
            for (int i = 0; i < Scripts.Length; i++)
                Console.Write((await Repl(Scripts[i], globals, i)).Replace("\r", ""));
            Console.WriteLine();
            var loop = new SingleThreadLoop("repl");
            loop.RunUntilComplete(async () =>
            {
                var tasks = Scripts.Take(3).Select((s, i) => Repl(s, new Env(null), 100 + i)).ToArray();
                foreach (var t in await Task.WhenAll(tasks)) Console.Write(t.Replace("\r", ""));
                Console.WriteLine($"on loop: {loop.IsCurrent}");
            });
            loop.Stop();
        }
    }
}
