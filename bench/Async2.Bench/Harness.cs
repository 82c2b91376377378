using System.Diagnostics;
using System.Runtime;
using System.Runtime.CompilerServices;
using System.Text.Json;

namespace System.Runtime.CompilerServices
{
    /// <summary>
    /// Roslyn's per-method switch: with <c>false</c> the method is compiled as a classic state machine
    /// even when the project is built with runtime-async=on. The compiler matches it by name.
    /// </summary>
    [AttributeUsage(AttributeTargets.Method)]
    internal sealed class RuntimeAsyncMethodGenerationAttribute(bool runtimeAsync) : Attribute
    {
        public bool RuntimeAsync { get; } = runtimeAsync;
    }
}

namespace Async2.Bench
{
    /// <summary>What one round measured: the value (its unit is the benchmark's) and allocated bytes per operation.</summary>
    internal readonly record struct Sample(double Value, double BytesPerOp);

    /// <summary>Settings shared by every benchmark of one worker process.</summary>
    internal sealed class Options
    {
        public bool Quick { get; init; }
        /// <summary>Measured rounds after warm-up; the median is reported.</summary>
        public int Rounds => Quick ? 3 : 5;
        /// <summary>Warm-up stops after this many rounds once a round compiled nothing, or earlier once two successive rounds agree.</summary>
        public int WarmupCap => Quick ? 4 : 10;
        /// <summary>Warm-up lasts at least this long, whatever the rounds say.</summary>
        public double MinWarmupMs => Quick ? 400 : 1000;
        /// <summary>Two successive warm-up rounds within this fraction of each other: tiering has settled.</summary>
        public const double Settled = 0.03;
    }

    /// <summary>One JSON line on stdout per measured cell; the driver (async2 bench) parses them.</summary>
    internal static class Report
    {
        private static readonly JsonSerializerOptions s_json = new()
        {
            PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
            NumberHandling = System.Text.Json.Serialization.JsonNumberHandling.AllowNamedFloatingPointLiterals,
        };

        public static void Cell(string benchmark, string variant, string @case, string unit, double value,
            double? bytesPerOp, IReadOnlyList<double>? rounds = null, string? note = null, IDictionary<string, double>? extra = null)
        {
            var line = JsonSerializer.Serialize(new
            {
                benchmark,
                variant,
                @case,
                unit,
                value,
                bytesPerOp,
                rounds,
                note,
                extra,
            }, s_json);
            Console.Out.WriteLine(line);
            Console.Out.Flush();
        }

        /// <summary>A cell that could not be measured, with the reason.</summary>
        public static void Failed(string benchmark, string variant, string @case, string unit, string reason) =>
            Cell(benchmark, variant, @case, unit, double.NaN, null, null, "fails: " + reason);
    }

    /// <summary>Warm-up until tiering settles, then the median of several rounds.</summary>
    internal static class Runner
    {
        public static void Measure(Options options, string benchmark, string variant, string @case, string unit, Func<Sample> round)
        {
            try
            {
                var (median, bytes, rounds) = Run(options, round);
                Report.Cell(benchmark, variant, @case, unit, median, bytes, rounds);
            }
            catch (Exception e)
            {
                Report.Failed(benchmark, variant, @case, unit, $"{e.GetType().Name}: {e.Message}");
            }
        }

        /// <param name="minWarmupMs">Overrides Options.MinWarmupMs for a benchmark whose code takes longer to tier up.</param>
        public static (double Median, double BytesPerOp, double[] Rounds) Run(Options options, Func<Sample> round, double? minWarmupMs = null)
        {
            // Tiered compilation promotes methods only after a delay (100 ms by default) and in the
            // background, so warm-up lasts at least the minimum, until two rounds agree and until a
            // round compiled no method: two rounds can agree while tier-1 code is still on its way.
            double minimum = minWarmupMs ?? options.MinWarmupMs;
            double cap = Math.Max(20 * options.MinWarmupMs, minimum);
            var warmup = Stopwatch.StartNew();
            double previous = round().Value;
            for (int i = 1; ; i++)
            {
                long compiledBefore = JitInfo.GetCompiledMethodCount();
                double current = round().Value;
                bool compiledNothing = JitInfo.GetCompiledMethodCount() == compiledBefore;
                bool settled = compiledNothing
                    && Math.Abs(current - previous) <= Options.Settled * Math.Max(Math.Abs(current), Math.Abs(previous));
                previous = current;
                bool longEnough = warmup.Elapsed.TotalMilliseconds >= minimum;
                if (longEnough && (settled || (compiledNothing && i + 1 >= options.WarmupCap)))
                    break;
                if (warmup.Elapsed.TotalMilliseconds >= cap)
                    break;
            }
            var samples = new Sample[options.Rounds];
            for (int i = 0; i < samples.Length; i++)
                samples[i] = round();
            var values = samples.Select(s => s.Value).ToArray();
            return (Median(values), Median(samples.Select(s => s.BytesPerOp).ToArray()), values);
        }

        public static double Median(double[] values)
        {
            var sorted = values.OrderBy(v => v).ToArray();
            int mid = sorted.Length / 2;
            return sorted.Length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
        }

        /// <summary>Milliseconds of a Stopwatch timestamp difference.</summary>
        public static double Ms(long ticks) => ticks * 1000.0 / Stopwatch.Frequency;

        /// <summary>A timestamp <paramref name="ms"/> from now.</summary>
        public static long Deadline(double ms) => Stopwatch.GetTimestamp() + (long)(ms * Stopwatch.Frequency / 1000);

        /// <summary>Blocks on a task without the worker's own code being an async method (keeps Main out of the rewrite).</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        public static T Wait<T>(Task<T> task) => task.GetAwaiter().GetResult();
        public static T Wait<T>(ValueTask<T> task) => task.AsTask().GetAwaiter().GetResult();
    }
}
