using Async2.Tests.Corpus;
using Xunit;

namespace Async2.Tests.Cli;

/// <summary>
/// Async2.Runtime's metadata update handler (HotReloadGuard.cs): a hot reload host that changed a
/// type with rewritten async methods, as an IDE's Hot Reload does, gets the app stopped with a
/// message that says why, instead of the app running the edited Task thunk as plain IL.
/// </summary>
public sealed class HotReloadGuardTests
{
    [Fact]
    public void An_edit_of_a_type_with_rewritten_async_methods_stops_the_app_and_others_do_not()
    {
        var build = ProgramBuilder.Build("HotReload", [Path.Combine(TestEnvironment.FixturesFolder, "HotReload.cs")]);

        var (exitCode, stdout, stderr) = ProgramRunner.RunDotnet([build.Rewritten], runtimeAsync: false);

        Assert.StartsWith("computed 42\nhandlers: HotReloadGuard\nafter an edit of SyncOnly: running\n", stdout.ReplaceLineEndings("\n"));
        Assert.DoesNotContain("after an edit of Program", stdout);
        Assert.NotEqual(0, exitCode);
        Assert.Contains("Async2: hot reload changed Program, whose async methods Async2 rewrote", stderr);
    }
}
