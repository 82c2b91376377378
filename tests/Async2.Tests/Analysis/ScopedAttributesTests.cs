using Async2.Rewriter.Analysis;
using Xunit;

namespace Async2.Tests.Analysis;

/// <summary>
/// The rewriter matches the context attributes by full name (programs in tests/expected declare
/// their own). The ones Async2.Runtime ships must carry those names, or a program referencing them
/// would be rewritten as if it had none.
/// </summary>
public sealed class ScopedAttributesTests
{
    [Fact]
    public void Shipped_attributes_carry_the_names_the_rewriter_matches()
    {
        Assert.Equal(ScopedAttributes.FlowContexts, typeof(Async2.Runtime.FlowContextsAttribute).FullName);
        Assert.Equal(ScopedAttributes.ConfigureAwait, typeof(System.Runtime.CompilerServices.ConfigureAwaitAttribute).FullName);
    }
}
