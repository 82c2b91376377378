using Async2.Tests.Corpus;
using Mono.Cecil;
using Mono.Cecil.Cil;
using Mono.Cecil.Rocks;
using Xunit;

namespace Async2.Tests.Cli;

/// <summary>
/// A resumed frame is reused when it suspends again, and an object reference is stored into it only
/// if it changed, sparing the write barrier (Rewrite/SuspensionEmitter.cs, FillAndLink), where the
/// suspension is inline; past a budget a method suspends out of line (Rewrite/OutOfLineSuspensions.cs); variables
/// kept at different awaits share a field (Rewrite/ContinuationLayout.cs). Running checks that what
/// changed is kept; the shapes check which stores are guarded and which fields are shared.
/// </summary>
public sealed class FrameReuseTests
{
    private static ProgramBuild Build() =>
        ProgramBuilder.Build("FrameReuse", [Path.Combine(TestEnvironment.FixturesFolder, "FrameReuse.cs")]);

    [Fact]
    public void Rewritten_build_prints_what_the_classic_one_prints() => RewrittenAssembly.PrintsWhatClassicPrints(Build());

    [Fact]
    public void Resumable_variant_guards_reference_stores_only_and_out_of_line_suspensions_guard_none()
    {
        using var module = ModuleDefinition.ReadModule(Build().Rewritten);
        var variants = RewrittenAssembly.Variants(module, "Program", "Accumulate");
        Assert.Equal(2, variants.Count);
        var stores = FrameFieldStores(variants[0]);
        string Kind(string field) => stores.Single(s => s.Field == field).Guarded ? "guarded" : "plain";
        // The argument and the string local are object references; the struct, the int and the
        // generic T (which may be a struct) are stored as they are.
        Assert.Equal("guarded", Kind("arg_prefix"));
        Assert.Equal("guarded", Kind(LocalField(variants[0], "System.String")));
        Assert.Equal("plain", Kind(LocalField(variants[0], "System.Collections.Generic.KeyValuePair`2<System.String,System.Int32>")));
        Assert.Equal("plain", Kind("arg_tag"));

        // Out of line (the fresh variant's, and a variant's past the inline budget), stores are plain.
        var freshSuspensions = RewrittenAssembly.OutOfLineSuspensions(variants[1]);
        Assert.NotEmpty(freshSuspensions);
        Assert.All(freshSuspensions, suspend => Assert.All(FrameFieldStores(suspend), store => Assert.False(store.Guarded, $"{store.Field} in {suspend.Name}")));
    }

    [Theory]
    [InlineData("Program", "ManyPoints", 64)]
    [InlineData("Tally", "Rounds", 8)]
    public void A_method_past_the_inline_budget_suspends_out_of_line_reusing_its_frame(string type, string method, int awaits)
    {
        using var module = ModuleDefinition.ReadModule(Build().Rewritten);
        var variants = RewrittenAssembly.Variants(module, type, method);
        var (resumable, fresh) = (variants[0], variants[1]);
        resumable.Body.SimplifyMacros(); // ldarg.3 names no parameter; ldarg does
        Assert.Empty(FrameFieldStores(resumable));
        Assert.DoesNotContain(resumable.Body.Instructions, i => i.OpCode.Code == Code.Newobj && ((MethodReference)i.Operand).DeclaringType.Resolve() == resumable.DeclaringType);
        var calls = RewrittenAssembly.OutOfLineSuspensionCalls(resumable);
        Assert.Equal(awaits, calls.Count);
        // The frame to reuse is the variant's last parameter, passed last.
        Assert.All(calls, call => Assert.Same(resumable.Parameters[^1], call.Previous.Operand));
        // The fresh variant calls the same methods.
        Assert.Equal(
            RewrittenAssembly.OutOfLineSuspensions(resumable).ToHashSet(),
            RewrittenAssembly.OutOfLineSuspensions(fresh).ToHashSet());
    }

    [Fact]
    public void A_method_past_the_inline_budget_is_compiled_with_optimizations()
    {
        var build = Build();

        // Inline, with compares, the resumable variant had more basic blocks than the JIT optimizes:
        // it was compiled "Tier-0 switched MinOpts" even when asked for full optimization.
        var log = Path.Combine(Path.GetTempPath(), $"async2-jit-summary-{Guid.NewGuid():N}.txt");
        try
        {
            var (exitCode, _, stderr) = ProgramRunner.RunDotnet([build.Rewritten], runtimeAsync: false, environment: new Dictionary<string, string?>
            {
                ["DOTNET_TieredCompilation"] = "0",
                ["DOTNET_JitDisasmSummary"] = "1",
                ["DOTNET_JitStdOutFile"] = log,
            });
            Assert.True(exitCode == 0, stderr);
            var compiled = File.ReadLines(log).Where(line => line.Contains(":ManyPoints(", StringComparison.Ordinal)).ToList();
            // The resumable variant's parameters end with the chain (byref) and the continuation.
            Assert.Contains(compiled, line => line.Contains("d__Async2", StringComparison.Ordinal) && line.Contains("byref,", StringComparison.Ordinal));
            Assert.All(compiled, line => Assert.Contains("FullOpts", line, StringComparison.Ordinal));
        }
        finally
        {
            File.Delete(log);
        }
    }

    [Fact]
    public void Variables_kept_at_different_awaits_share_a_field_of_their_type()
    {
        using var module = ModuleDefinition.ReadModule(Build().Rewritten);
        var continuation = RewrittenAssembly.Variants(module, "Program", "TwoPhases")[0].DeclaringType;
        // first (at the first await) and second (at the second) are both strings; n (at the first)
        // and firstLength (at the second) are both ints.
        var strings = continuation.Fields.Where(f => f.FieldType.FullName == "System.String").ToList();
        var ints = continuation.Fields.Where(f => f.FieldType.FullName == "System.Int32").ToList();
        Assert.Single(strings);
        Assert.Equal(2, strings[0].Name.Split('|').Length);
        Assert.Single(ints);
        Assert.Contains("arg_n", ints[0].Name.Split('|'));
        Assert.Equal(2, ints[0].Name.Split('|').Length);
    }

    /// <summary>The continuation field the variant's local of type <paramref name="typeName"/> is kept in.</summary>
    private static string LocalField(MethodDefinition variant, string typeName) =>
        variant.DeclaringType.Fields.Single(f => f.Name.StartsWith("local", StringComparison.Ordinal) && f.FieldType.FullName == typeName).Name;

    /// <summary>
    /// Each store into a captured field of the frame (not StateAndFlags), and whether a
    /// <c>ldfld</c> of the same field with a <c>beq</c> comes just before it (the guard).
    /// </summary>
    private static List<(string Field, bool Guarded)> FrameFieldStores(MethodDefinition method)
    {
        var instructions = method.Body.Instructions;
        var stores = new List<(string, bool)>();
        for (int i = 0; i < instructions.Count; i++)
        {
            if (instructions[i].OpCode.Code != Code.Stfld || instructions[i].Operand is not FieldReference field
                || !(field.Name.StartsWith("local", StringComparison.Ordinal) || field.Name.StartsWith("arg_", StringComparison.Ordinal)))
                continue;
            bool guarded = instructions.Take(i).Reverse().Take(8).Any(x => x.OpCode.Code is Code.Beq or Code.Beq_S)
                && instructions.Take(i).Reverse().Take(8).Any(x => x.OpCode.Code == Code.Ldfld && ((FieldReference)x.Operand).Name == field.Name);
            stores.Add((field.Name, guarded));
        }
        return stores;
    }
}
