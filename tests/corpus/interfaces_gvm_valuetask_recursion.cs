// Recursion through generic virtual methods returning ValueTask<T>: an expression tree whose nodes
// implement INode.Accept<T>(IVisitor<T>) (a generic interface method, so every call is a generic
// virtual dispatch), visitors computing results of different shapes (int, string, a 3-field struct
// holding a reference, a nullable), leaf implementations that complete synchronously or suspend
// depending on their value, a struct node dispatched through a constrained type parameter, an
// abstract class GVM overridden at two levels with base calls, a default interface GVM, a visitor
// that throws at one depth (the exception travels back through every ValueTask frame, a frame in
// the middle catches and recovers once), and a 600-deep chain alternating sync and suspending
// levels.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

interface IVisitor<T>
{
    ValueTask<T> Leaf(int value);
    ValueTask<T> Binary(char op, T left, T right);
    ValueTask<T> Wrap(string name, T inner) => ValueTask.FromResult(inner);
}

interface INode
{
    ValueTask<T> Accept<T>(IVisitor<T> visitor);
    async ValueTask<T> AcceptTwice<T>(IVisitor<T> visitor, Func<T, T, T> combine)
    {
        var a = await Accept(visitor);
        var b = await Accept(visitor);
        return combine(a, b);
    }
}

sealed class Leaf(int value) : INode
{
    // Even leaves complete synchronously, odd ones suspend.
    public ValueTask<T> Accept<T>(IVisitor<T> visitor) => value % 2 == 0 ? visitor.Leaf(value) : Suspending(visitor);
    private async ValueTask<T> Suspending<T>(IVisitor<T> visitor)
    {
        await Task.Yield();
        return await visitor.Leaf(value);
    }
}

sealed class Bin(char op, INode left, INode right) : INode
{
    public async ValueTask<T> Accept<T>(IVisitor<T> visitor)
    {
        var l = await left.Accept(visitor);
        var r = await right.Accept(visitor);
        return await visitor.Binary(op, l, r);
    }
}

struct Named<TNode>(string name, TNode inner) : INode where TNode : INode
{
    public int Visits;
    public async ValueTask<T> Accept<T>(IVisitor<T> visitor)
    {
        Visits++;
        return await visitor.Wrap(name, await inner.Accept(visitor));
    }
}

sealed class Chain(int depth) : INode
{
    public async ValueTask<T> Accept<T>(IVisitor<T> visitor)
    {
        if (depth == 0) return await visitor.Leaf(0);
        if (depth % 3 == 0) await Task.Yield();
        var inner = await new Chain(depth - 1).Accept(visitor);
        return await visitor.Binary('+', inner, await visitor.Leaf(1));
    }
}

sealed class Eval : IVisitor<int>
{
    public ValueTask<int> Leaf(int value) => new(value);
    public async ValueTask<int> Binary(char op, int l, int r)
    {
        if (op == '/' && r == 0) throw new DivideByZeroException($"{l}/0");
        if (l > 1000) await Task.Yield();
        return op switch { '+' => l + r, '-' => l - r, '*' => l * r, '/' => l / r, _ => throw new NotSupportedException(op.ToString()) };
    }
}

sealed class Print : IVisitor<string>
{
    public async ValueTask<string> Leaf(int value) { if (value > 5) await Task.Yield(); return value.ToString(); }
    public ValueTask<string> Binary(char op, string l, string r) => new($"({l}{op}{r})");
    public async ValueTask<string> Wrap(string name, string inner) { await Task.Yield(); return $"{name}:{inner}"; }
}

record struct Stats(int Leaves, int MaxDepthSeen, string Trail);

sealed class StatsVisitor : IVisitor<Stats>
{
    public ValueTask<Stats> Leaf(int value) => new(new Stats(1, 1, value.ToString()));
    public async ValueTask<Stats> Binary(char op, Stats l, Stats r)
    {
        await Task.Yield();
        return new Stats(l.Leaves + r.Leaves, Math.Max(l.MaxDepthSeen, r.MaxDepthSeen) + 1, l.Trail + op + r.Trail);
    }
}

sealed class NullableVisitor : IVisitor<long?>
{
    public ValueTask<long?> Leaf(int value) => new(value == 0 ? null : value);
    public async ValueTask<long?> Binary(char op, long? l, long? r) { await Task.Yield(); return op == '*' ? l * r : l + r ?? l ?? r; }
}

abstract class Reducer
{
    public abstract ValueTask<TAcc> Reduce<TAcc>(INode node, IVisitor<TAcc> visitor, Func<TAcc, TAcc> post);
}

class PlainReducer : Reducer
{
    public override async ValueTask<TAcc> Reduce<TAcc>(INode node, IVisitor<TAcc> visitor, Func<TAcc, TAcc> post) => post(await node.Accept(visitor));
}

sealed class TwiceReducer : PlainReducer
{
    public override async ValueTask<TAcc> Reduce<TAcc>(INode node, IVisitor<TAcc> visitor, Func<TAcc, TAcc> post)
    {
        var once = await base.Reduce(node, visitor, post);
        await Task.Yield();
        return post(once);
    }
}

static class Program
{
    static async ValueTask<T> ViaConstraint<TNode, T>(TNode node, IVisitor<T> visitor) where TNode : INode => await node.Accept(visitor);

    static async ValueTask<string> Recovering(INode node)
    {
        try { return $"{await node.Accept(new Eval())}"; }
        catch (DivideByZeroException e)
        {
            await Task.Yield();
            return $"recovered from {e.Message}";
        }
    }

    static async Task Main()
    {
        // ((1 + 2) * (7 - 4)) + (10 / (3 - 3 + 5))
        INode tree = new Bin('+',
            new Bin('*', new Bin('+', new Leaf(1), new Leaf(2)), new Bin('-', new Leaf(7), new Leaf(4))),
            new Bin('/', new Leaf(10), new Bin('+', new Bin('-', new Leaf(3), new Leaf(3)), new Leaf(5))));
        Console.WriteLine($"eval {await tree.Accept(new Eval())}");
        Console.WriteLine($"print {await tree.Accept(new Print())}");
        Console.WriteLine($"stats {await tree.Accept(new StatsVisitor())}");
        Console.WriteLine($"nullable {(await new Bin('*', new Leaf(0), new Leaf(3)).Accept(new NullableVisitor()))?.ToString() ?? "null"} {await new Bin('+', new Leaf(0), new Leaf(3)).Accept(new NullableVisitor())}");

        var named = new Named<INode>("root", tree);
        Console.WriteLine($"named {await ViaConstraint(named, new Print())} visits on copy={named.Visits}");
        Console.WriteLine($"named direct {await named.Accept(new Eval())} visits={named.Visits}");
        var nestedNamed = new Named<Named<Leaf>>("outer", new Named<Leaf>("inner", new Leaf(9)));
        Console.WriteLine($"nested named {await ViaConstraint(nestedNamed, new Print())} {await ViaConstraint(nestedNamed, new StatsVisitor())}");
        Console.WriteLine($"default GVM {await tree.AcceptTwice(new Eval(), (a, b) => a * 100 + b)} {await ((INode)new Leaf(3)).AcceptTwice(new Print(), string.Concat)}");

        Reducer reducer = new TwiceReducer();
        Console.WriteLine($"reducer {await reducer.Reduce(tree, new Eval(), x => x + 1)} {await reducer.Reduce(tree, new Print(), s => $"[{s}]")} {await new PlainReducer().Reduce(new Leaf(5), new StatsVisitor(), s => s with { Trail = s.Trail + "!" })}");

        INode bad = new Bin('+', new Leaf(1), new Bin('*', new Leaf(3), new Bin('/', new Leaf(9), new Bin('-', new Leaf(5), new Leaf(5)))));
        try { Console.WriteLine(await bad.Accept(new Eval())); }
        catch (DivideByZeroException e) { Console.WriteLine($"bad threw {e.GetType().Name}: {e.Message}"); }
        Console.WriteLine($"recovering {await Recovering(bad)} / {await Recovering(tree)}");

        Console.WriteLine($"chain {await new Chain(600).Accept(new Eval())} {(await new Chain(40).Accept(new StatsVisitor())).MaxDepthSeen} {(await new Chain(30).Accept(new Print())).Length}");
        var many = new List<Task<int>>();
        for (int i = 0; i < 5; i++) many.Add(new Chain(50 * i).Accept(new Eval()).AsTask());
        Console.WriteLine($"concurrent chains {string.Join(",", await Task.WhenAll(many))}");
    }
}
