// Prints Samples.Portable's transcript; the same lines on every runtime (samples/README.md).
foreach (var line in await Samples.Portable.Workload.RunAsync())
    Console.WriteLine(line);
