// Expression trees built and compiled inside async methods: Expression<Func<...>> lambdas that
// capture locals and parameters of the async method (hoisted into closures) and are compiled and
// invoked after awaits; expression trees whose body calls an async method and returns its Task,
// the task awaited; trees built by hand with Expression.Call on a generic async method's
// MakeGenericMethod; a captured local changed after an await, seen by the compiled delegate; a tree
// compiled with preferInterpretation; each run without and with real suspensions.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Linq.Expressions;
using System.Reflection;
using System.Threading.Tasks;

class Counter
{
    public int Value;
    public async Task<int> AddAsync(int by)
    {
        await Program.Pause();
        Value += by;
        return Value;
    }
}

static class Program
{
    static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend)
            await Task.Yield();
    }

    public static async Task<int> Triple(int x)
    {
        await Pause();
        return x * 3;
    }

    public static async Task<T> Wrap<T>(T value, string tag)
    {
        await Pause();
        Console.WriteLine($"  Wrap<{typeof(T).Name}>({value}, {tag})");
        return value;
    }

    public static async ValueTask<string> Describe(int x)
    {
        await Pause();
        return "d" + x;
    }

    static async Task<int> CompileAfterAwait(int offset)
    {
        Expression<Func<int, int>> expr = x => x * x + offset;
        await Pause();
        var f = expr.Compile();
        int before = f(3);
        offset = 100;
        await Pause();
        int after = f(3);
        Console.WriteLine($"  expr {expr.Body.NodeType} {expr.Parameters[0].Name} -> {before} then {after}");
        return before + after;
    }

    static async Task<int> TreeCallingAsync(int seed)
    {
        Expression<Func<int, Task<int>>> expr = x => Triple(x + seed);
        var compiled = expr.Compile();
        await Pause();
        var first = await compiled(1);
        seed = 10;
        var second = await compiled(1);
        Expression<Func<int, ValueTask<string>>> vt = x => Describe(x * seed);
        var third = await vt.Compile()(2);
        Console.WriteLine($"  async tree {first} {second} {third}");
        return first + second;
    }

    static async Task<string> HandBuilt<T>(T value)
    {
        var method = typeof(Program).GetMethod(nameof(Wrap), BindingFlags.Public | BindingFlags.Static)!.MakeGenericMethod(typeof(T));
        var p = Expression.Parameter(typeof(T), "v");
        var call = Expression.Call(method, p, Expression.Constant("hand"));
        var lambda = Expression.Lambda<Func<T, Task<T>>>(call, p);
        await Pause();
        var fn = lambda.Compile();
        T result = await fn(value);
        await Pause();
        var interpreted = lambda.Compile(preferInterpretation: true);
        T again = await interpreted(result);
        return $"{result}/{again}";
    }

    static async Task<int> InstanceTree()
    {
        var counter = new Counter();
        Expression<Func<Counter, int, Task<int>>> expr = (c, n) => c.AddAsync(n * 2);
        var fn = expr.Compile();
        int total = 0;
        for (int i = 1; i <= 3; i++)
        {
            total += await fn(counter, i);
            await Pause();
        }
        return total * 100 + counter.Value;
    }

    static async Task<string> ManyTreesAcrossAwaits(IEnumerable<int> items)
    {
        var parts = new List<string>();
        int factor = 2;
        foreach (var item in items)
        {
            Expression<Func<int, bool>> filter = x => x % factor == 0;
            Expression<Func<int, string>> format = x => $"<{x}:{factor}>";
            await Pause();
            var ok = filter.Compile()(item);
            parts.Add(ok ? format.Compile()(item) : "-");
            factor++;
        }
        var query = items.AsQueryable().Where(x => x > factor - 4).Select(x => x * factor);
        await Pause();
        parts.Add(string.Join(",", query));
        return string.Join(" ", parts);
    }

    static async Task<int> TreeOfBlockAndLoop(int n)
    {
        var i = Expression.Variable(typeof(int), "i");
        var acc = Expression.Variable(typeof(int), "acc");
        var limit = Expression.Parameter(typeof(int), "limit");
        var brk = Expression.Label(typeof(int));
        var body = Expression.Block(new[] { i, acc },
            Expression.Assign(i, Expression.Constant(0)),
            Expression.Assign(acc, Expression.Constant(0)),
            Expression.Loop(
                Expression.IfThenElse(
                    Expression.LessThan(i, limit),
                    Expression.Block(
                        Expression.AddAssign(acc, Expression.Multiply(i, i)),
                        Expression.PostIncrementAssign(i)),
                    Expression.Break(brk, acc)),
                brk));
        var fn = Expression.Lambda<Func<int, int>>(body, limit).Compile();
        await Pause();
        int a = fn(n);
        await Pause();
        return a + fn(n + 1);
    }

    static async Task<string> TreeThrowing()
    {
        Expression<Func<int, Task<int>>> expr = x => x > 0 ? Triple(x) : Task.FromException<int>(new ArgumentException("neg " + x));
        var fn = expr.Compile();
        var log = "";
        foreach (var x in new[] { 2, -1 })
        {
            try
            {
                log += await fn(x) + ";";
            }
            catch (ArgumentException e)
            {
                await Pause();
                log += e.Message + ";";
            }
        }
        return log;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"--- suspend={suspend}");
            Console.WriteLine("compile " + await CompileAfterAwait(1));
            Console.WriteLine("calling " + await TreeCallingAsync(4));
            Console.WriteLine("hand " + await HandBuilt(42));
            Console.WriteLine("hand " + await HandBuilt("str"));
            Console.WriteLine("instance " + await InstanceTree());
            Console.WriteLine("many " + await ManyTreesAcrossAwaits(new[] { 4, 6, 8, 9, 12 }));
            Console.WriteLine("block " + await TreeOfBlockAndLoop(4));
            Console.WriteLine("throwing " + await TreeThrowing());
        }
    }
}
