// Core-library calls that run user code: an exception's overridden Message, string.Concat and
// string.Format calling ToString and IFormattable.ToString. When that user code changes an
// AsyncLocal or the SynchronizationContext inside an awaited method, the caller must not see it
// after the await (classic async puts both back when a method returns), suspended or not.
using System;
using System.Threading;
using System.Threading.Tasks;

class ChattyException : Exception
{
    public override string Message { get { Program.Current.Value = "changed by Message"; return "chatty"; } }
}

class Item
{
    public override string ToString() { Program.Current.Value = "changed by ToString"; return "item"; }
}

struct Money : IFormattable
{
    public string ToString(string? format, IFormatProvider? provider)
    {
        SynchronizationContext.SetSynchronizationContext(new SynchronizationContext());
        return "1.00";
    }
}

static class Program
{
    public static readonly AsyncLocal<string> Current = new();
    static bool Suspend;

    static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<string> MessageOf(Exception e) { await Pause(); return e.Message; }
    static async Task<string> Describe(object o) { await Pause(); return string.Concat("<", o, ">"); }
    static async Task<string> Format(Money m) { await Pause(); return string.Format("{0}", m); }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Current.Value = "caller";
            var message = await MessageOf(new ChattyException());
            Console.WriteLine($"suspend={suspend} Message: {message}, caller sees {Current.Value}");
            Current.Value = "caller";
            var described = await Describe(new Item());
            Console.WriteLine($"suspend={suspend} Concat: {described}, caller sees {Current.Value}");
            Current.Value = "caller";
            var text = MessageOf(new ChattyException()).GetAwaiter().GetResult();
            Console.WriteLine($"suspend={suspend} through the Task: {text}, caller sees {Current.Value}");
            // Only without a suspension: after one, classic async lets the caller run on inline, on the
            // thread and under the context the callee left, before putting that context back (a
            // difference the README lists).
            if (!suspend)
            {
                var formatted = await Format(new Money());
                Console.WriteLine($"Format: {formatted}, context {(SynchronizationContext.Current is null ? "none" : "set")}");
                SynchronizationContext.SetSynchronizationContext(null);
            }
        }
    }
}
