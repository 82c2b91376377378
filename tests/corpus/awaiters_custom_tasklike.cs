// Custom task-like types ([AsyncMethodBuilder] on the type: a class Job<T> and a struct Op<T> and a
// non-generic Op), which the compiler keeps as state machines in the runtime-async build too, mixed
// with rewritten methods in both directions: rewritten methods awaiting them (a custom awaiter that
// may complete later), task-like methods awaiting rewritten ones, virtual task-like methods in a
// generic base overridden by task-like overrides, generic task-like methods over value and
// reference types, async lambdas converted to delegates returning task-likes, exceptions through
// both, and a builder that counts the state machines it starts.
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

[AsyncMethodBuilder(typeof(JobBuilder<>))]
sealed class Job<T>
{
    internal readonly TaskCompletionSource<T> Source = new(TaskCreationOptions.RunContinuationsAsynchronously);
    public string Label = "job";
    public Awaiter GetAwaiter() => new Awaiter(Source.Task.GetAwaiter());

    public readonly struct Awaiter : ICriticalNotifyCompletion
    {
        private readonly TaskAwaiter<T> inner;
        public Awaiter(TaskAwaiter<T> inner) { this.inner = inner; }
        public bool IsCompleted => inner.IsCompleted;
        public T GetResult() => inner.GetResult();
        public void OnCompleted(Action continuation) => inner.OnCompleted(continuation);
        public void UnsafeOnCompleted(Action continuation) => inner.UnsafeOnCompleted(continuation);
    }
}

sealed class JobBuilder<T>
{
    public static int Started;
    private Job<T>? job;
    public static JobBuilder<T> Create() => new JobBuilder<T>();
    public Job<T> Task => job ??= new Job<T>();
    public void Start<TStateMachine>(ref TStateMachine stateMachine) where TStateMachine : IAsyncStateMachine
    {
        Started++;
        _ = Task;
        stateMachine.MoveNext();
    }
    public void SetStateMachine(IAsyncStateMachine stateMachine) { }
    public void SetResult(T result) => Task.Source.SetResult(result);
    public void SetException(Exception exception) => Task.Source.SetException(exception);
    public void AwaitOnCompleted<TAwaiter, TStateMachine>(ref TAwaiter awaiter, ref TStateMachine stateMachine)
        where TAwaiter : INotifyCompletion where TStateMachine : IAsyncStateMachine
    {
        _ = Task;
        awaiter.OnCompleted(stateMachine.MoveNext);
    }
    public void AwaitUnsafeOnCompleted<TAwaiter, TStateMachine>(ref TAwaiter awaiter, ref TStateMachine stateMachine)
        where TAwaiter : ICriticalNotifyCompletion where TStateMachine : IAsyncStateMachine
    {
        _ = Task;
        awaiter.UnsafeOnCompleted(stateMachine.MoveNext);
    }
}

[AsyncMethodBuilder(typeof(OpBuilder<>))]
readonly struct Op<T>
{
    private readonly ValueTask<T> inner;
    public Op(ValueTask<T> inner) { this.inner = inner; }
    public ValueTaskAwaiter<T> GetAwaiter() => inner.GetAwaiter();
    public Task<T> AsTask() => inner.AsTask();
}

struct OpBuilder<T>
{
    private AsyncValueTaskMethodBuilder<T> inner;
    public static OpBuilder<T> Create() => new OpBuilder<T> { inner = AsyncValueTaskMethodBuilder<T>.Create() };
    public Op<T> Task => new Op<T>(inner.Task);
    public void Start<TStateMachine>(ref TStateMachine stateMachine) where TStateMachine : IAsyncStateMachine => inner.Start(ref stateMachine);
    public void SetStateMachine(IAsyncStateMachine stateMachine) => inner.SetStateMachine(stateMachine);
    public void SetResult(T result) => inner.SetResult(result);
    public void SetException(Exception exception) => inner.SetException(exception);
    public void AwaitOnCompleted<TAwaiter, TStateMachine>(ref TAwaiter awaiter, ref TStateMachine stateMachine)
        where TAwaiter : INotifyCompletion where TStateMachine : IAsyncStateMachine => inner.AwaitOnCompleted(ref awaiter, ref stateMachine);
    public void AwaitUnsafeOnCompleted<TAwaiter, TStateMachine>(ref TAwaiter awaiter, ref TStateMachine stateMachine)
        where TAwaiter : ICriticalNotifyCompletion where TStateMachine : IAsyncStateMachine => inner.AwaitUnsafeOnCompleted(ref awaiter, ref stateMachine);
}

[AsyncMethodBuilder(typeof(OpBuilder))]
readonly struct Op
{
    private readonly ValueTask inner;
    public Op(ValueTask inner) { this.inner = inner; }
    public ValueTaskAwaiter GetAwaiter() => inner.GetAwaiter();
}

struct OpBuilder
{
    private AsyncValueTaskMethodBuilder inner;
    public static OpBuilder Create() => new OpBuilder { inner = AsyncValueTaskMethodBuilder.Create() };
    public Op Task => new Op(inner.Task);
    public void Start<TStateMachine>(ref TStateMachine stateMachine) where TStateMachine : IAsyncStateMachine => inner.Start(ref stateMachine);
    public void SetStateMachine(IAsyncStateMachine stateMachine) => inner.SetStateMachine(stateMachine);
    public void SetResult() => inner.SetResult();
    public void SetException(Exception exception) => inner.SetException(exception);
    public void AwaitOnCompleted<TAwaiter, TStateMachine>(ref TAwaiter awaiter, ref TStateMachine stateMachine)
        where TAwaiter : INotifyCompletion where TStateMachine : IAsyncStateMachine => inner.AwaitOnCompleted(ref awaiter, ref stateMachine);
    public void AwaitUnsafeOnCompleted<TAwaiter, TStateMachine>(ref TAwaiter awaiter, ref TStateMachine stateMachine)
        where TAwaiter : ICriticalNotifyCompletion where TStateMachine : IAsyncStateMachine => inner.AwaitUnsafeOnCompleted(ref awaiter, ref stateMachine);
}

delegate Op<int> OpFactory(int seed);

abstract class Stage<T>
{
    public virtual async Op<string> Run(T input)
    {
        await Program.Pause();
        return "stage(" + input + ")";
    }

    public abstract Job<T> Produce(int n);

    public async Task<string> Pipeline(int n)
    {
        var produced = await Produce(n);
        var ran = await Run(produced);
        await Program.Pause();
        return ran + " <- " + produced;
    }
}

sealed class IntStage : Stage<int>
{
    public override async Op<string> Run(int input)
    {
        var b = await base.Run(input * 2);
        return "int:" + b + ":" + await Program.Rewritten(input);
    }

    public override async Job<int> Produce(int n)
    {
        await Program.Pause();
        return await Program.Rewritten(n) + 1;
    }
}

sealed class TextStage : Stage<string>
{
    public override async Job<string> Produce(int n)
    {
        var s = "";
        for (int i = 0; i < n; i++)
            s += await Program.Rewritten(i);
        return s;
    }
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    public static async Task<int> Rewritten(int v)
    {
        await Pause();
        return v * 10;
    }

    static async Job<T> Wrap<T>(T value)
    {
        await Pause();
        return value;
    }

    static async Op<(T, int)> Pair<T>(T value)
    {
        var n = await Rewritten(3);
        return (await Wrap(value), n);
    }

    static async Op Announce(List<string> log, string text)
    {
        await Pause();
        log.Add("announce " + text + " " + await Rewritten(1));
    }

    static async Job<int> Fails(int v)
    {
        await Pause();
        if (v > 0) throw new InvalidOperationException("job failed " + v);
        return v;
    }

    static async Op<int> OpFails(int v)
    {
        await Rewritten(v);
        throw new ArgumentException("op failed " + v);
    }

    static async Task<string> CatchBoth()
    {
        var parts = new List<string>();
        try { await Fails(2); } catch (InvalidOperationException e) { parts.Add(e.Message); }
        try { await OpFails(3); } catch (ArgumentException e) { parts.Add(e.Message); }
        try { await Fails(0); parts.Add("no fail"); } catch (Exception e) { parts.Add("unexpected " + e.Message); }
        await Pause();
        return string.Join("; ", parts);
    }

    static async Task<string> AwaitMany()
    {
        var a = await Wrap(5);
        var b = await Wrap("five");
        var c = await Wrap<int?>(null);
        var d = await Wrap(new DateTime(2020, 1, 2));
        var (p, n) = await Pair(Guid.Empty);
        var (q, m) = await Pair<object>("obj");
        return $"{a} {b} {(c.HasValue ? "has" : "null")} {d:yyyy-MM-dd} {p} {n} {q} {m}";
    }

    static async Task<int> Lambdas()
    {
        OpFactory f = async seed => { await Pause(); return seed + await Rewritten(seed); };
        Func<int, Job<int>> g = async x => await f(x) * 2;
        Func<Op> h = async () => await Pause();
        await h();
        return await f(1) + await g(2);
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"--- suspend={suspend}");
            Console.WriteLine(await AwaitMany());
            var log = new List<string>();
            await Announce(log, "x");
            await Announce(log, "y");
            Console.WriteLine(string.Join(", ", log));
            Console.WriteLine(await CatchBoth());
            Console.WriteLine(await Lambdas());
            Stage<int> si = new IntStage();
            Console.WriteLine(await si.Pipeline(4));
            Console.WriteLine(await si.Run(7));
            Stage<string> ss = new TextStage();
            Console.WriteLine(await ss.Pipeline(3));
            Console.WriteLine(await ss.Run("direct"));
            Console.WriteLine("job builders started: int=" + JobBuilder<int>.Started + " string=" + JobBuilder<string>.Started);
        }
    }
}
