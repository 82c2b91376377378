using Async2.Tests.Corpus;
using Mono.Cecil;
using Mono.Cecil.Cil;
using Xunit;

namespace Async2.Tests.Cli;

/// <summary>
/// The compatible-mode context scope (a protected region restoring ExecutionContext and
/// SynchronizationContext) is emitted where the body can change a context and nowhere else:
/// on a body that only awaits and calls rewritten methods it would cost the call its inlining
/// and a try/finally per frame (FibAsync ran 4× slower with it).
/// </summary>
public sealed class ContextScopeTests
{
    [Theory]
    [InlineData("Fib", false)]
    [InlineData("YieldsThenCalls", false)]
    [InlineData("ThrowsAfterSuspending", false)]
    [InlineData("SetsAsyncLocal", true)]
    [InlineData("AwaitsANonAsyncHelper", true)]
    [InlineData("SetsSynchronizationContext", true)]
    [InlineData("AwaitsGivenValueTasks", true)]
    [InlineData("MakesAValueTask", false)]
    [InlineData("GuardsItsArguments", false)]
    [InlineData("HandlesWithAPredicate", true)]
    [InlineData("GuardsAnAppValue", true)]
    public void Variant_has_a_context_scope_only_where_the_body_can_change_a_context(string method, bool expectScope)
    {
        var build = ProgramBuilder.Build("ContextScope", [Path.Combine(TestEnvironment.FixturesFolder, "ContextScope.cs")]);
        using var module = ModuleDefinition.ReadModule(build.Rewritten);
        var variants = RewrittenAssembly.Variants(module, "Methods", method);
        Assert.Equal(2, variants.Count);
        foreach (var variant in variants)
        {
            bool hasScope = variant.Body.Instructions.Any(i =>
                i.Operand is MethodReference { Name: "EnterVariant", DeclaringType.Name: "ThunkScope" });
            Assert.True(hasScope == expectScope,
                $"{variant.FullName}: expected {(expectScope ? "a" : "no")} context scope, found {(hasScope ? "one" : "none")}");
        }

        // The thunk lends its own scope to the variant's, and only to a variant that has one: a
        // mark left for a scope-less variant would be taken by a scope it calls, whose changes
        // would then leak into the variant.
        var thunk = module.GetType("Methods").Methods.Single(m => m.Name == method);
        bool lends = thunk.Body.Instructions.Any(i =>
            i.Operand is MethodReference { Name: "LendContextScope", DeclaringType.Name: "AsyncChain" });
        Assert.True(lends == expectScope, $"{method}: the thunk {(lends ? "lends" : "does not lend")} its scope");

        // Its frames say so (ContinuationFlags.HasContextScope), for the dispatcher to lend the
        // scope to a root that puts the contexts back itself, and only where there is one, as above.
        var flagStores = variants[0].DeclaringType.Methods
            .SelectMany(m => m.Body.Instructions)
            .Where(i => i.Operand is FieldReference { Name: "StateAndFlags" } && i.OpCode == OpCodes.Stfld)
            .Select(i => ConstantLoaded(i.Previous) & ((1 << Async2.Runtime.Continuation.FlagBits) - 1))
            .ToList();
        Assert.NotEmpty(flagStores);
        Assert.All(flagStores, flags => Assert.True(((flags & 4) != 0) == expectScope, $"{method}: a frame's flags {flags}"));

        // A thunk over a body that cannot change a context has nothing to put back: no scope, no context reads.
        bool entersScope = thunk.Body.Instructions.Any(i =>
            i.Operand is MethodReference { Name: "Enter", DeclaringType.Name: "ThunkScope" });
        Assert.True(entersScope == expectScope, $"{method}: the thunk {(entersScope ? "saves" : "does not save")} the contexts");
    }

    private static int ConstantLoaded(Instruction load) => load.OpCode.Code switch
    {
        >= Code.Ldc_I4_0 and <= Code.Ldc_I4_8 => load.OpCode.Code - Code.Ldc_I4_0,
        Code.Ldc_I4_S => (sbyte)load.Operand,
        Code.Ldc_I4 => (int)load.Operand,
        _ => throw new InvalidOperationException($"the flags are not a constant: {load}"),
    };
}
