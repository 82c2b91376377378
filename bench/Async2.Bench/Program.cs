using System.Runtime;

namespace Async2.Bench;

/// <summary>
/// The benchmark worker: runs one benchmark for the variants this build and process provide and
/// prints one JSON line per measured cell on stdout. Usually started by `async2 bench`.
///
///   Async2.Bench &lt;callcost|eh|ehfinally|gc|fib|suspend|chain|deep|pipeline|pending|first|info&gt; [--variant V] [--quick] [--n N] [--short-traces] [--manual-awaiter] [--listen]
///
/// The classic build measures Sync, Task and ValueTask; the runtime-async build measures "Runtime"
/// under DOTNET_RuntimeAsync=1 and "Async2" once rewritten. Rolled forward onto .NET 11 the same
/// builds report "Task11", "Runtime11" (natively, no switch), "Async2_11" (Model.Variant).
/// Main is synchronous on purpose.
/// --short-traces (eh, rewritten builds) sets Async2.CompleteStackTraces to false and measures only
/// exceptions after a suspension, the one case it changes, as variant "&lt;name&gt;ShortTraces".
/// --listen (rewritten builds) attaches a listener to Async2's meter (MetricsListener.cs) and reports
/// the cells as variant "&lt;name&gt;Listened".
/// </summary>
public static class Program
{
    public static int Main(string[] args)
    {
        if (args.Length == 0)
        {
            Console.Error.WriteLine("usage: Async2.Bench <callcost|eh|ehfinally|gc|fib|suspend|chain|deep|pipeline|pending|first|info> [--variant V] [--quick] [--n N] [--short-traces] [--manual-awaiter] [--listen]");
            return 2;
        }
        // Before anything else runs async code: the mode check below does.
        var first = args[0] == "first" ? FirstSuspension.Measure() : default;
        bool quick = args.Contains("--quick");
        // The driver names gc's and deep's variants as on the stock runtime; the worker adds the suffix of the runtime it runs on.
        string variant = Option(args, "--variant") is { } named ? Model.Variant(named) : Model.Name;
        var options = new Options { Quick = quick };
        // .NET 10 runs runtime-async methods only under the switch; .NET 11 runs them natively.
        if (Model.BaseName == "Runtime" && Model.NewerRuntime is null && Environment.GetEnvironmentVariable("DOTNET_RuntimeAsync") != "1")
            Console.Error.WriteLine("warning: the runtime-async build runs without DOTNET_RuntimeAsync=1");
        bool flows = Model.CalleeContextChangesFlow();
        if (flows != (Model.BaseName == "Async2"))
        {
            Console.Error.WriteLine($"the {Model.Name} build {(flows ? "flows" : "does not flow")} a callee's AsyncLocal changes to its caller: "
                + "its context mode does not match its name (Async2 flows, every other variant does not)");
            return 3;
        }

#if RUNTIME_ASYNC_BUILD
        using var listener = args.Contains("--listen") ? MetricsListener.Attach() : null;
        Model.Listened = listener is not null;
#endif
        switch (args[0])
        {
            case "info":
                Console.WriteLine($"{{\"model\":\"{Model.Name}\",\"runtime\":\"{Environment.Version}\",\"server\":{(GCSettings.IsServerGC ? "true" : "false")},\"latency\":\"{GCSettings.LatencyMode}\"}}");
                return 0;
            case "callcost":
                CallCost.Run(options);
                return 0;
            case "eh" when args.Contains("--short-traces"):
                // Read once, at the first exception after a suspension: set before any is thrown.
                AppContext.SetSwitch("Async2.CompleteStackTraces", false);
                Exceptions.RunShortTraces(options);
                return 0;
            case "eh":
                Exceptions.Run(options);
                return 0;
            case "ehfinally":
                Exceptions.RunFinally(options);
                return 0;
            case "gc":
                GcImpact.Run(options, variant);
                return 0;
            case "fib":
                Fib.Run(options);
                return 0;
            case "suspend":
                // --manual-awaiter: the seed's case alone (bench/profile/suspension.sh samples it).
                Suspension.Run(options, valueTaskSource: !args.Contains("--manual-awaiter"));
                return 0;
            case "chain":
                Chains.Run(options);
                return 0;
            case "pipeline":
                Pipeline.Run(options);
                return 0;
            case "pending":
                Pending.Run(options);
                return 0;
            case "first":
                FirstSuspension.Report(first);
                return 0;
            case "deep":
                Chains.RunDeep(options, variant, int.Parse(Option(args, "--n") ?? "1000000"));
                return 0;
            default:
                Console.Error.WriteLine($"unknown benchmark '{args[0]}'");
                return 2;
        }
    }

    private static string? Option(string[] args, string name)
    {
        int i = Array.IndexOf(args, name);
        return i >= 0 && i + 1 < args.Length ? args[i + 1] : null;
    }
}
