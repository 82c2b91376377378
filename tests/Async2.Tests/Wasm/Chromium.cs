namespace Async2.Tests.Wasm;

/// <summary>
/// Debian's headless Chromium, as the tests start it (.ci/run installs it). The flags keep it off the
/// network this machine does not have (background updates, sync, QUIC) and out of any profile but
/// a fresh one of the test's own.
/// </summary>
internal static class Chromium
{
    public static string Path()
    {
        var chromium = new[] { "/usr/bin/chromium", "/usr/bin/chromium-browser" }.FirstOrDefault(File.Exists);
        Xunit.Assert.True(chromium is not null, "headless Chromium is needed: apt-get install chromium (.ci/run does)");
        return chromium!;
    }

    public static string[] HeadlessArguments(string profile) =>
        ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", $"--user-data-dir={profile}"];
}
