using Async2.Tests.Corpus;
using Mono.Cecil;
using Mono.Cecil.Cil;
using Xunit;

namespace Async2.Tests.Cli;

/// <summary>
/// Calls go to a fresh-call variant: the variant's body without the resume parameter and its
/// dispatch, whose suspensions build their frames out of line (Rewrite/SuspensionEmitter.cs,
/// EmitOutOfLine). What it must keep is checked by running; these check its shape.
/// </summary>
public sealed class FreshCallVariantTests
{
    private static ProgramBuild Build() =>
        ProgramBuilder.Build("FreshCalls", [Path.Combine(TestEnvironment.FixturesFolder, "FreshCalls.cs")]);

    [Fact]
    public void Rewritten_build_prints_what_the_classic_one_prints() => RewrittenAssembly.PrintsWhatClassicPrints(Build());

    [Theory]
    [InlineData("Fib")]
    [InlineData("SumAfterYields")]
    public void Fresh_variant_has_no_resumption_and_suspends_out_of_line(string method)
    {
        using var module = ModuleDefinition.ReadModule(Build().Rewritten);
        var variants = RewrittenAssembly.Variants(module, "Program", method);
        Assert.Equal(2, variants.Count);
        var fresh = variants[1];
        Assert.Equal("chain", fresh.Parameters[^1].Name);
        var instructions = fresh.Body.Instructions;
        Assert.DoesNotContain(instructions, i => i.OpCode.Code == Code.Switch);
        Assert.DoesNotContain(instructions, i => i.OpCode.Code == Code.Newobj && ((MethodReference)i.Operand).DeclaringType.Resolve() == fresh.DeclaringType);

        var suspensions = RewrittenAssembly.OutOfLineSuspensions(fresh);
        Assert.NotEmpty(suspensions);
        Assert.All(suspensions, suspend =>
        {
            Assert.True(suspend.NoInlining, $"{suspend.Name} may be inlined into {method}'s fresh variant");
            Assert.Contains(suspend.Body.Instructions, i => i.OpCode.Code == Code.Newobj);
        });
    }

    [Theory]
    [InlineData("Fib")]
    [InlineData("SumAfterYields")]
    public void Suspension_code_takes_no_line_in_either_variant(string method)
    {
        // It took the await's statement's line: Microsoft's coverage counted a line that never ran
        // as covered whenever the method suspended (found by a helper).
        using var module = ModuleDefinition.ReadModule(Build().Rewritten, new ReaderParameters { ReadSymbols = true });
        foreach (var variant in RewrittenAssembly.Variants(module, "Program", method))
        {
            var suspensions = RewrittenAssembly.OutOfLineSuspensionCalls(variant)
                .Concat(variant.Body.Instructions.Where(i => i.Operand is MethodReference { Name: "Link" or "LinkAwaitingCallee" }))
                .ToList();
            Assert.NotEmpty(suspensions);
            var points = variant.DebugInformation.SequencePoints.OrderBy(point => point.Offset).ToList();
            Assert.All(suspensions, suspension =>
            {
                // Before the first statement (the stack guard's suspension) there is no line either.
                var statement = points.LastOrDefault(point => point.Offset <= suspension.Offset);
                Assert.True(statement is null || statement.IsHidden, $"{variant.FullName}: the suspension at IL_{suspension.Offset:x4} is on line {statement?.StartLine}");
            });
        }
    }

    [Fact]
    public void Thunk_and_callers_call_the_fresh_variant()
    {
        using var module = ModuleDefinition.ReadModule(Build().Rewritten);
        var fibFresh = RewrittenAssembly.Variants(module, "Program", "Fib")[1];
        var thunk = module.GetType("Program").Methods.Single(m => m.Name == "Fib");
        var callers = new[] { thunk, fibFresh, RewrittenAssembly.Variants(module, "Program", "SumAfterYields")[0] };
        foreach (var caller in callers)
        {
            var calls = caller.Body.Instructions
                .Where(i => i.OpCode.Code == Code.Call && i.Operand is MethodReference { Name: "Fib" })
                .Select(i => ((MethodReference)i.Operand).Resolve())
                .ToList();
            Assert.NotEmpty(calls);
            Assert.All(calls, callee => Assert.Same(fibFresh, callee));
        }
    }

    /// <summary>The trimmer ties a closure class to the one method constructing it and warns (IL2117) when two do.</summary>
    [Fact]
    public void A_method_creating_a_closure_keeps_a_single_variant()
    {
        using var module = ModuleDefinition.ReadModule(Build().Rewritten);
        var variants = RewrittenAssembly.Variants(module, "Program", "CapturesInALambda");
        Assert.Single(variants);
        var thunk = module.GetType("Program").Methods.Single(m => m.Name == "CapturesInALambda");
        var call = thunk.Body.Instructions.Single(i => i.OpCode.Code == Code.Call && i.Operand is MethodReference { Name: "CapturesInALambda" });
        Assert.Same(variants[0], ((MethodReference)call.Operand).Resolve());
        Assert.Equal(OpCodes.Ldnull, call.Previous.OpCode);
    }
}
