using Async2.Fuzz;

// dotnet run --project tests/Async2.Fuzz -c Release -- --seed N --count M [--batch B] [--out dir] [--keep]
var seed = 1;
var count = 100;
var batch = 50;
var keep = false;
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
        case "--print": Console.Write(FuzzSession.ProgramOf([Generator.Generate(int.Parse(args[++i]))])); return 0;
        default:
            Console.Error.WriteLine($"unknown argument '{args[i]}'\nusage: [run] --seed N --count M [--batch B] [--out dir] [--keep] | --print SEED");
            return 2;
    }
}

var result = new FuzzSession(output, Console.Out) { BatchSize = batch, KeepWork = keep }.Run(seed, count);
Console.WriteLine($"{result.Programs} programs (seeds {seed}..{seed + count - 1}) in {result.Elapsed.TotalSeconds:F0} s: {result.Failures.Count} differ");
foreach (var failure in result.Failures)
    Console.WriteLine($"  seed {failure.Seed}: {failure.Folder}");
return result.Failures.Count == 0 ? 0 : 1;
