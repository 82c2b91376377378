namespace Async2.Tests.Corpus;

/// <summary>
/// A program compiled with /instrument:TestCoverage calls Microsoft.CodeAnalysis.Runtime.Instrumentation,
/// which a coverage tool supplies at run time; the tests that build such programs (CliTests,
/// PackagesTests) append this stand-in to their source. Its signatures are the ones Roslyn calls.
/// </summary>
internal static class CoverageInstrumentationStub
{
    public const string Source = """

        namespace Microsoft.CodeAnalysis.Runtime
        {
            public static class Instrumentation
            {
                public static bool[] CreatePayload(System.Guid mvid, int method, int file, ref bool[] payload, int length) => payload ??= new bool[length];
                public static bool[] CreatePayload(System.Guid mvid, int method, int[] files, ref bool[] payload, int length) => payload ??= new bool[length];
                public static void FlushPayload() { }
            }
        }
        """;
}
