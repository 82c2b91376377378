// Real-world: a small workflow / saga engine. Steps implement a generic interface
// IStep<TIn, TOut> returning ValueTask<Result<TOut>> (a readonly struct result type with an error
// string), an abstract generic base class provides a template method calling a protected abstract
// async ExecuteCore and a virtual async Compensate, some steps override it, a generic extension
// Then<TA,TB,TC> composes steps into a pipeline class, steps run through a constrained generic
// method, completed steps are compensated in reverse order (awaits in catch and in a loop over a
// Stack<T>), and a retrying decorator wraps any step.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

readonly struct Result<T>
{
    public readonly T Value;
    public readonly string? Error;
    public readonly int Attempts;
    private Result(T value, string? error, int attempts) { Value = value; Error = error; Attempts = attempts; }
    public static Result<T> Ok(T value, int attempts = 1) => new(value, null, attempts);
    public static Result<T> Fail(string error, int attempts = 1) => new(default!, error, attempts);
    public bool IsOk => Error is null;
    public override string ToString() => IsOk ? $"Ok({Value})" : $"Fail({Error})";
}

interface IStep<TIn, TOut>
{
    string Name { get; }
    ValueTask<Result<TOut>> RunAsync(TIn input, WorkflowContext context);
    Task CompensateAsync(WorkflowContext context) => Task.CompletedTask;
}

sealed class WorkflowContext
{
    public static bool Suspend;
    public readonly List<string> Log = new();
    public readonly Stack<Func<Task>> Compensations = new();
    public static async Task Pause() { if (Suspend) await Task.Yield(); }
}

abstract class StepBase<TIn, TOut> : IStep<TIn, TOut>
{
    public abstract string Name { get; }
    protected abstract Task<TOut> ExecuteCore(TIn input);

    public async ValueTask<Result<TOut>> RunAsync(TIn input, WorkflowContext context)
    {
        context.Log.Add($"{Name}({input})");
        try
        {
            var output = await ExecuteCore(input);
            context.Compensations.Push(() => CompensateAsync(context));
            return Result<TOut>.Ok(output);
        }
        catch (InvalidOperationException e)
        {
            await WorkflowContext.Pause();
            return Result<TOut>.Fail($"{Name}: {e.Message}");
        }
    }

    public virtual async Task CompensateAsync(WorkflowContext context)
    {
        await WorkflowContext.Pause();
        context.Log.Add($"undo {Name} (default)");
    }
}

sealed class ReserveStock : StepBase<string, (string Sku, int Reserved)>
{
    public override string Name => "reserve";
    protected override async Task<(string Sku, int Reserved)> ExecuteCore(string sku)
    {
        await WorkflowContext.Pause();
        return sku == "none" ? throw new InvalidOperationException("out of stock") : (sku, sku.Length);
    }
}

sealed class ChargeCard(decimal limit) : StepBase<(string Sku, int Reserved), decimal>
{
    public override string Name => "charge";
    protected override async Task<decimal> ExecuteCore((string Sku, int Reserved) input)
    {
        await Task.Delay(WorkflowContext.Suspend ? 1 : 0);
        decimal amount = input.Reserved * 12.5m;
        return amount > limit ? throw new InvalidOperationException($"limit {limit} < {amount}") : amount;
    }
    public override async Task CompensateAsync(WorkflowContext context)
    {
        await base.CompensateAsync(context);
        context.Log.Add("refund issued");
    }
}

sealed class Ship : StepBase<decimal, Guid>
{
    private int counter;
    public override string Name => "ship";
    protected override async Task<Guid> ExecuteCore(decimal amount)
    {
        await WorkflowContext.Pause();
        if (++counter % 2 == 1) throw new InvalidOperationException("carrier busy");
        return new Guid((int)amount, 0, 0, new byte[8]);
    }
}

sealed class Retrying<TIn, TOut>(IStep<TIn, TOut> inner, int attempts) : IStep<TIn, TOut>
{
    public string Name => inner.Name + "*";
    public async ValueTask<Result<TOut>> RunAsync(TIn input, WorkflowContext context)
    {
        Result<TOut> last = default;
        for (int i = 1; i <= attempts; i++)
        {
            last = await inner.RunAsync(input, context);
            if (last.IsOk) return Result<TOut>.Ok(last.Value, i);
        }
        return Result<TOut>.Fail(last.Error!, attempts);
    }
}

sealed class Pipeline<TIn, TMid, TOut>(IStep<TIn, TMid> first, IStep<TMid, TOut> second) : IStep<TIn, TOut>
{
    public string Name => $"{first.Name}>{second.Name}";
    public async ValueTask<Result<TOut>> RunAsync(TIn input, WorkflowContext context)
    {
        var a = await Engine.RunStep<IStep<TIn, TMid>, TIn, TMid>(first, input, context);
        if (!a.IsOk) return Result<TOut>.Fail(a.Error!, a.Attempts);
        var b = await Engine.RunStep<IStep<TMid, TOut>, TMid, TOut>(second, a.Value, context);
        return b;
    }
}

static class Engine
{
    public static IStep<TA, TC> Then<TA, TB, TC>(this IStep<TA, TB> first, IStep<TB, TC> second) => new Pipeline<TA, TB, TC>(first, second);

    public static async ValueTask<Result<TOut>> RunStep<TStep, TIn, TOut>(TStep step, TIn input, WorkflowContext context)
        where TStep : IStep<TIn, TOut>
    {
        var result = await step.RunAsync(input, context);
        context.Log.Add($"  {step.Name} -> {result} x{result.Attempts}");
        return result;
    }

    public static async Task<string> Execute<TIn, TOut>(IStep<TIn, TOut> workflow, TIn input)
    {
        var context = new WorkflowContext();
        var result = await RunStep<IStep<TIn, TOut>, TIn, TOut>(workflow, input, context);
        if (!result.IsOk)
        {
            int undone = 0;
            while (context.Compensations.TryPop(out var compensate))
            {
                try { await compensate(); undone++; }
                catch (Exception e) { context.Log.Add("compensation failed: " + e.Message); }
            }
            context.Log.Add($"compensated {undone}");
        }
        foreach (var line in context.Log) Console.WriteLine("    " + line);
        return result.ToString();
    }
}

static class Program
{
    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            WorkflowContext.Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            var order = new ReserveStock().Then(new ChargeCard(100m)).Then(new Retrying<decimal, Guid>(new Ship(), 3));
            foreach (var sku in new[] { "lamp", "none", "chandelier" })
                Console.WriteLine($"  order {sku}: {await Engine.Execute(order, sku)}");
            var noRetry = new ReserveStock().Then(new ChargeCard(1000m)).Then<string, decimal, Guid>(new Ship());
            Console.WriteLine($"  no retry: {await Engine.Execute(noRetry, "desk")}");
            // Which body the interface call reaches, read from the log once it has run: whether the
            // task had completed when the call returned raced the pool thread Task.Yield resumes on.
            IStep<string, (string, int)> plain = new ReserveStock();
            var compensated = new WorkflowContext();
            await plain.CompensateAsync(compensated);
            Console.WriteLine($"  compensate through the interface: [{string.Join(", ", compensated.Log)}]");
        }
    }
}
