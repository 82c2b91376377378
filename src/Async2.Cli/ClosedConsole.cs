using System.Text;

namespace Async2.Cli;

/// <summary>
/// Standard output and error as async2 writes to them, going quiet once one is gone (closed with
/// <c>&gt;&amp;-</c>): a write to a closed stream throws, which would end the process with a stack
/// trace after its command had done its work. What a command did is not undone by a report nobody
/// can read, so its exit code stays its own. (A reader that left a pipe is not this: the runtime
/// already ignores EPIPE.)
/// </summary>
internal sealed class ClosedConsole(TextWriter console) : TextWriter
{
    private bool _gone;

    /// <summary>Puts both streams behind this guard; call before anything is written.</summary>
    public static void Guard()
    {
        Console.SetOut(Synchronized(new ClosedConsole(Console.Out)));
        Console.SetError(Synchronized(new ClosedConsole(Console.Error)));
    }

    public override Encoding Encoding => console.Encoding;

    public override void Write(char value) => Try(() => console.Write(value));

    public override void Write(string? value) => Try(() => console.Write(value));

    public override void Write(char[] buffer, int index, int count) => Try(() => console.Write(buffer, index, count));

    public override void WriteLine(string? value) => Try(() => console.WriteLine(value));

    public override void Flush() => Try(console.Flush);

    private void Try(Action write)
    {
        if (_gone)
            return;
        try
        {
            write();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ObjectDisposedException)
        {
            _gone = true;
        }
    }
}
