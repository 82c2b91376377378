// Real-world: an async recursive-descent parser and evaluator for a small expression language.
// Tokens come from an async tokenizer reading a TextReader with ReadAsync into a char buffer
// (Span slicing between awaits), the grammar methods (Expr/Term/Factor/Call) are mutually recursive
// async methods returning abstract-class AST nodes, evaluation is a virtual async EvalAsync with
// variables and functions resolved through an async environment, checked arithmetic raises
// OverflowException caught and reported, and syntax errors carry the position.
using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using System.Threading.Tasks;

sealed class SyntaxError(string message, int position) : Exception($"{message} at {position}");

enum Kind { Number, Name, Op, LParen, RParen, Comma, End }

readonly record struct Token(Kind Kind, string Text, int Position);

sealed class Lexer(TextReader reader)
{
    private readonly char[] buffer = new char[4];
    private int length, index, consumed;
    public static bool Suspend;

    private async ValueTask<int> PeekChar()
    {
        if (index == length)
        {
            if (Suspend) await Task.Yield();
            length = await reader.ReadAsync(buffer.AsMemory());
            index = 0;
            if (length == 0) return -1;
        }
        return buffer.AsSpan(index, length - index)[0];
    }

    private async ValueTask<char> NextChar()
    {
        char c = (char)await PeekChar();
        index++;
        consumed++;
        return c;
    }

    public async Task<Token> Next()
    {
        int c;
        while ((c = await PeekChar()) == ' ') await NextChar();
        int start = consumed;
        if (c == -1) return new Token(Kind.End, "", start);
        var text = new StringBuilder().Append(await NextChar());
        if (char.IsDigit((char)c))
        {
            while ((c = await PeekChar()) != -1 && char.IsDigit((char)c)) text.Append(await NextChar());
            return new Token(Kind.Number, text.ToString(), start);
        }
        if (char.IsLetter((char)c))
        {
            while ((c = await PeekChar()) != -1 && char.IsLetterOrDigit((char)c)) text.Append(await NextChar());
            return new Token(Kind.Name, text.ToString(), start);
        }
        return (char)c switch
        {
            '(' => new Token(Kind.LParen, "(", start),
            ')' => new Token(Kind.RParen, ")", start),
            ',' => new Token(Kind.Comma, ",", start),
            '+' or '-' or '*' or '/' => new Token(Kind.Op, text.ToString(), start),
            _ => throw new SyntaxError($"unexpected '{(char)c}'", start),
        };
    }
}

abstract class Node
{
    public abstract Task<long> EvalAsync(Env env);
}

sealed class Num(long value) : Node
{
    public override Task<long> EvalAsync(Env env) => Task.FromResult(value);
}

sealed class Var(string name) : Node
{
    public override async Task<long> EvalAsync(Env env) => await env.Lookup(name);
}

sealed class Binary(char op, Node left, Node right) : Node
{
    public override async Task<long> EvalAsync(Env env)
    {
        long l = await left.EvalAsync(env);
        return op switch
        {
            '+' => checked(l + await right.EvalAsync(env)),
            '-' => checked(l - await right.EvalAsync(env)),
            '*' => checked(l * await right.EvalAsync(env)),
            _ => await right.EvalAsync(env) is var r && r == 0 ? throw new DivideByZeroException() : l / r,
        };
    }
}

sealed class Call(string function, List<Node> args) : Node
{
    public override async Task<long> EvalAsync(Env env)
    {
        var values = new long[args.Count];
        for (int i = 0; i < args.Count; i++) values[i] = await args[i].EvalAsync(env);
        return await env.Invoke(function, values);
    }
}

sealed class Env
{
    private readonly Dictionary<string, long> variables = new() { ["x"] = 6, ["y"] = 7, ["big"] = long.MaxValue / 2 };

    public async ValueTask<long> Lookup(string name)
    {
        if (Lexer.Suspend) await Task.Delay(1);
        return variables.TryGetValue(name, out var v) ? v : throw new KeyNotFoundException($"no variable {name}");
    }

    public async Task<long> Invoke(string name, long[] args)
    {
        if (Lexer.Suspend) await Task.Yield();
        return (name, args.Length) switch
        {
            ("max", > 0) => Max(args),
            ("neg", 1) => checked(-args[0]),
            ("sum", _) => Sum(args),
            _ => throw new MissingMethodException($"{name}/{args.Length}"),
        };
        static long Max(long[] a) { long m = a[0]; foreach (var v in a) m = Math.Max(m, v); return m; }
        static long Sum(long[] a) { long s = 0; foreach (var v in a) s = checked(s + v); return s; }
    }
}

sealed class Parser(Lexer lexer)
{
    private Token current;

    private async Task Advance() => current = await lexer.Next();

    public async Task<Node> ParseAll()
    {
        await Advance();
        var node = await Expr();
        return current.Kind == Kind.End ? node : throw new SyntaxError($"trailing '{current.Text}'", current.Position);
    }

    private async Task<Node> Expr()
    {
        var node = await Term();
        while (current is { Kind: Kind.Op, Text: "+" or "-" })
        {
            char op = current.Text[0];
            await Advance();
            node = new Binary(op, node, await Term());
        }
        return node;
    }

    private async Task<Node> Term()
    {
        var node = await Factor();
        while (current is { Kind: Kind.Op, Text: "*" or "/" })
        {
            char op = current.Text[0];
            await Advance();
            node = new Binary(op, node, await Factor());
        }
        return node;
    }

    private async Task<Node> Factor()
    {
        var token = current;
        await Advance();
        switch (token.Kind)
        {
            case Kind.Number:
                return new Num(long.Parse(token.Text));
            case Kind.Op when token.Text == "-":
                return new Binary('-', new Num(0), await Factor());
            case Kind.LParen:
                var inner = await Expr();
                if (current.Kind != Kind.RParen) throw new SyntaxError("expected ')'", current.Position);
                await Advance();
                return inner;
            case Kind.Name when current.Kind == Kind.LParen:
                var args = new List<Node>();
                await Advance();
                while (current.Kind != Kind.RParen)
                {
                    args.Add(await Expr());
                    if (current.Kind == Kind.Comma) await Advance();
                    else if (current.Kind != Kind.RParen) throw new SyntaxError("expected ',' or ')'", current.Position);
                }
                await Advance();
                return new Call(token.Text, args);
            case Kind.Name:
                return new Var(token.Text);
            default:
                throw new SyntaxError($"unexpected {token.Kind}", token.Position);
        }
    }
}

static class Program
{
    static async Task<string> Evaluate(string source)
    {
        try
        {
            var ast = await new Parser(new Lexer(new StringReader(source))).ParseAll();
            return (await ast.EvalAsync(new Env())).ToString();
        }
        catch (Exception e) when (e is SyntaxError or OverflowException or DivideByZeroException)
        {
            return $"{e.GetType().Name}: {e.Message}";
        }
        catch (Exception e)
        {
            return $"error {e.GetType().Name} ({e.Message})";
        }
    }

    static async Task Main()
    {
        string[] programs =
        [
            "1 + 2 * 3", "(1 + 2) * 3", "x * y - 2", "max(1, x, y * 2, 3) + sum()", "-neg(4) - -3",
            "big * 3", "sum(big, big, 5)", "10 / (x - 6)", "100 / 7 / 2", "foo(1)", "z + 1",
            "1 + ", "(2 * 3", "3 $ 4", "max(1 2)", "2 3",
        ];
        foreach (var suspend in new[] { false, true })
        {
            Lexer.Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            foreach (var source in programs)
                Console.WriteLine($"{source,-28} => {await Evaluate(source)}");
        }
    }
}
