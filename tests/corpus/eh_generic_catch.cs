// catch clauses whose type is a generic parameter (catch (TEx e) where TEx : Exception), of a
// generic method, of a generic class, and of a generic virtual/interface method, with filters,
// with awaits in the catch body and after the try, in a retry loop; a derived exception caught by
// a base type argument, a cancellation caught as OperationCanceledException, and an exception
// that no type argument matches escaping to the caller. Called directly and through delegates.
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

class TransientException : Exception
{
    public int Attempt { get; }
    public TransientException(int attempt) : base("transient " + attempt) { Attempt = attempt; }
}

sealed class VeryTransientException : TransientException
{
    public VeryTransientException(int attempt) : base(attempt) { }
}

interface IGuard
{
    Task<string> Run<TEx>(Func<Task<int>> body) where TEx : Exception;
}

class Guard : IGuard
{
    protected readonly List<string> log;
    public Guard(List<string> log) { this.log = log; }

    public virtual async Task<string> Run<TEx>(Func<Task<int>> body) where TEx : Exception
    {
        try
        {
            int v = await body();
            return "value " + v;
        }
        catch (TEx e) when (Note("filter " + typeof(TEx).Name + " saw " + e.GetType().Name))
        {
            await Program.Value(0);
            return $"guard caught {e.GetType().Name} as {typeof(TEx).Name}";
        }
    }

    protected bool Note(string s) { log.Add(s); return true; }
}

sealed class LoggingGuard : Guard
{
    public LoggingGuard(List<string> log) : base(log) { }

    public override async Task<string> Run<TEx>(Func<Task<int>> body)
    {
        try
        {
            return "[" + await base.Run<TEx>(body) + "]";
        }
        catch (Exception e)
        {
            log.Add("logging guard saw " + e.GetType().Name);
            await Program.Value(1);
            throw;
        }
    }
}

sealed class Policy<TEx, TOther> where TEx : Exception where TOther : Exception
{
    private readonly int attempts;
    public Policy(int attempts) { this.attempts = attempts; }

    public async Task<TResult> Execute<TResult>(Func<int, Task<TResult>> body, List<string> log)
    {
        for (int attempt = 1; ; attempt++)
        {
            try
            {
                return await body(attempt);
            }
            catch (TEx e) when (attempt < attempts)
            {
                log.Add($"retry after {e.Message}");
                await Program.Value(attempt);
            }
            catch (TOther e)
            {
                log.Add($"other {e.GetType().Name}");
                await Program.Value(-attempt);
                return default!;
            }
            finally
            {
                log.Add("attempt " + attempt + " done");
            }
        }
    }
}

static class Program
{
    public static bool Suspend;
    static readonly List<string> log = new();

    public static async Task<int> Value(int v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static async Task<int> Fails(Exception e)
    {
        await Value(0);
        throw e;
    }

    static async Task<string> Catch<TEx>(Exception thrown) where TEx : Exception
    {
        string s = "";
        try
        {
            s += await Value(1);
            await Fails(thrown);
            s += "unreached";
        }
        catch (TEx e)
        {
            s += "|" + typeof(TEx).Name + ":" + e.Message + await Value(2);
        }
        return s;
    }

    static async Task<string> Twice<TFirst, TSecond>(Exception thrown) where TFirst : Exception where TSecond : Exception
    {
        try
        {
            return await Catch<TFirst>(thrown);
        }
        catch (TSecond e) when (e.Message.Length > 0)
        {
            return "outer " + typeof(TSecond).Name + " " + await Value(3);
        }
    }

    static async Task Show(string name, Func<Task<string>> run)
    {
        log.Clear();
        string r;
        try { r = await run(); }
        catch (Exception e) { r = "threw " + e.GetType().Name + ": " + e.Message; }
        Console.WriteLine($"{name} = {r} [{string.Join(", ", log)}]");
    }

    static async Task Main()
    {
        var canceled = new CancellationTokenSource();
        canceled.Cancel();
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            await Show("Catch<Transient>(Very)", () => Catch<TransientException>(new VeryTransientException(1)));
            await Show("Catch<Very>(Transient)", () => Catch<VeryTransientException>(new TransientException(2)));
            await Show("Catch<Exception>(Arg)", () => Catch<Exception>(new ArgumentException("arg")));
            await Show("Catch<OCE>(TCE)", () => Catch<OperationCanceledException>(new TaskCanceledException("tce")));
            await Show("Twice<Very,Transient>(Transient)", () => Twice<VeryTransientException, TransientException>(new TransientException(3)));
            await Show("Twice<Arg,Transient>(Very)", () => Twice<ArgumentException, TransientException>(new VeryTransientException(4)));
            await Show("Twice<Arg,Format>(Very)", () => Twice<ArgumentException, FormatException>(new VeryTransientException(5)));

            IGuard[] guards = { new Guard(log), new LoggingGuard(log) };
            foreach (var g in guards)
            {
                string n = g.GetType().Name;
                await Show(n + ".Run<Transient>(ok)", () => g.Run<TransientException>(() => Value(7)));
                await Show(n + ".Run<Transient>(very)", () => g.Run<TransientException>(() => Fails(new VeryTransientException(6))));
                await Show(n + ".Run<Format>(very)", () => g.Run<FormatException>(() => Fails(new VeryTransientException(7))));
                await Show(n + ".Run<OCE>(canceled delay)", () => g.Run<OperationCanceledException>(async () => { await Task.Delay(10, canceled.Token); return 1; }));
            }

            var policy = new Policy<TransientException, InvalidOperationException>(3);
            await Show("Policy(succeeds at 2)", async () => (await policy.Execute(async a => a < 2 ? await Fails(new TransientException(a)) : a * 100, log)).ToString());
            await Show("Policy(always transient)", async () => (await policy.Execute<int>(async a => await Fails(new VeryTransientException(a)), log)).ToString());
            await Show("Policy(other)", async () => (await policy.Execute<string>(async a => a == 1 ? throw new TransientException(a) : throw new InvalidOperationException("io"), log)) ?? "null");
            await Show("Policy(escapes)", async () => (await policy.Execute<int>(async a => { await Value(a); throw new FormatException("fmt"); }, log)).ToString());
        }
    }
}
