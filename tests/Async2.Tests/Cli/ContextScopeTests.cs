using Async2.Tests.Corpus;
using Mono.Cecil;
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

        // A thunk over a body that cannot change a context has nothing to put back: no scope, no context reads.
        bool entersScope = thunk.Body.Instructions.Any(i =>
            i.Operand is MethodReference { Name: "Enter", DeclaringType.Name: "ThunkScope" });
        Assert.True(entersScope == expectScope, $"{method}: the thunk {(entersScope ? "saves" : "does not save")} the contexts");
    }
}
