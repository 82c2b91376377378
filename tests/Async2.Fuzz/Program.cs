using Async2.Fuzz;

// dotnet run --project tests/Async2.Fuzz -c Release -- --seed N --count M [--batch B] [--out dir] [--keep]
//   [--try-depth D] [--debug] [--max-reductions R]
var seed = 1;
var count = 100;
var batch = 50;
var keep = false;
var debug = false;
var maxReductions = int.MaxValue;
var generation = GeneratorOptions.Default;
int? print = null;
var output = Path.Combine(Toolchain.RepositoryRoot, "artifacts", "fuzz");
for (int i = 0; i < args.Length; i++)
{
    switch (args[i])
    {
        case "run": break;
        case "--seed": seed = int.Parse(args[++i]); break;
        case "--count": count = int.Parse(args[++i]); break;
        case "--batch": batch = int.Parse(args[++i]); break;
        case "--keep": keep = true; break;
        case "--out": output = Path.GetFullPath(args[++i]); break;
        case "--try-depth": generation = generation with { TryDepth = int.Parse(args[++i]) }; break;
        case "--debug": debug = true; break;
        case "--max-reductions": maxReductions = int.Parse(args[++i]); break;
        case "--print": print = int.Parse(args[++i]); break;
        default:
            Console.Error.WriteLine($"unknown argument '{args[i]}'\nusage: [run] --seed N --count M [--batch B] [--out dir] [--keep] [--try-depth D] [--debug] [--max-reductions R] | --print SEED [--try-depth D]");
            return 2;
    }
}
if (generation.TryDepth < 2)
{
    Console.Error.WriteLine("--try-depth must be at least 2");
    return 2;
}
if (print is int printed)
{
    Console.Write(FuzzSession.ProgramOf([Generator.Generate(printed, generation)]));
    return 0;
}

var session = new FuzzSession(output, Console.Out) { BatchSize = batch, KeepWork = keep, DebugBuild = debug, MaxReductions = maxReductions, Generation = generation };
var result = session.Run(seed, count);
Console.WriteLine($"{result.Programs} programs (seeds {seed}..{seed + count - 1}) in {result.Elapsed.TotalSeconds:F0} s: {result.Failures.Count} differ");
foreach (var failure in result.Failures)
    Console.WriteLine($"  seed {failure.Seed}: {failure.Folder}");
return result.Failures.Count == 0 ? 0 : 1;
