using System.Reflection;
using Async2.Tests.Corpus;
using Xunit;

namespace Async2.Tests.Cli;

/// <summary>
/// A synchronous async2 → async2 call (one that completes without suspending) allocates nothing.
/// Measured in-process on Fixtures/Allocation.cs with GC.GetAllocatedBytesForCurrentThread: the
/// bytes allocated by Loop(n) must not grow with n. The classic build of the same source is
/// measured too, to show the measurement does see per-call allocations when there are some.
/// </summary>
public sealed class AllocationTests
{
    private const int Iterations = 100_000;

    /// <summary>
    /// Loop: static calls; VirtualLoop: calls through a base reference to a rewritten override, to an
    /// inherited one and to covariant ones (Task&lt;long&gt; over Task); InterfaceLoop: calls through an interface to implicit and explicit implementations.
    /// </summary>
    [Theory]
    [InlineData("Loop")]
    [InlineData("VirtualLoop")]
    [InlineData("InterfaceLoop")]
    public void Synchronous_async2_calls_allocate_nothing(string loopName)
    {
        var build = ProgramBuilder.Build("Allocation", [Path.Combine(TestEnvironment.FixturesFolder, "Allocation.cs")]);
        long perIteration = BytesPerIteration(build.Rewritten, loopName);
        Assert.True(perIteration == 0, $"a synchronous async2 call allocated {perIteration} bytes per iteration of {loopName}");
    }

    [Theory]
    [InlineData("Loop")]
    [InlineData("VirtualLoop")]
    [InlineData("InterfaceLoop")]
    public void The_measurement_sees_classic_per_call_tasks(string loopName)
    {
        var build = ProgramBuilder.Build("Allocation", [Path.Combine(TestEnvironment.FixturesFolder, "Allocation.cs")]);
        long perIteration = BytesPerIteration(build.Classic, loopName);
        Assert.True(perIteration >= 24, $"classic async allocated only {perIteration} bytes per iteration of {loopName}; expected a Task<long> per call");
    }

    private static long BytesPerIteration(string assemblyPath, string loopName)
    {
        var assembly = Assembly.LoadFile(assemblyPath);
        var loop = assembly.GetType("Calls")!.GetMethod(loopName)!.CreateDelegate<Func<int, Task<long>>>();
        for (int round = 0; round < 3; round++)
            Assert.True(loop(1000).IsCompletedSuccessfully); // let the JIT settle; nothing suspends

        long Measure(int count)
        {
            long before = GC.GetAllocatedBytesForCurrentThread();
            var task = loop(count);
            long after = GC.GetAllocatedBytesForCurrentThread();
            Assert.True(task.IsCompletedSuccessfully);
            return after - before;
        }

        long baseline = Measure(1);
        long many = Measure(Iterations + 1);
        return (many - baseline) / Iterations;
    }
}
