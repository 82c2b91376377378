// Exception helpers that run user code: AggregateException.Handle calls the predicate it is given,
// ArgumentOutOfRangeException.ThrowIfEqual<T> and ThrowIfGreaterThan<T> call T's Equals and
// CompareTo. A method whose other calls leave the contexts alone (awaits, Task members) may still
// change them through these; when it does, its caller must not see the change after the await
// (classic async puts both contexts back when a method returns), suspended or not.
using System;
using System.Threading;
using System.Threading.Tasks;

readonly record struct OrderId(int Value) : IComparable<OrderId>
{
    public bool Equals(OrderId other)
    {
        Program.Current.Value = "changed by Equals";
        return Value == other.Value;
    }

    public override int GetHashCode() => Value;

    public int CompareTo(OrderId other)
    {
        Program.Current.Value = "changed by CompareTo";
        return Value.CompareTo(other.Value);
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

    // A helper that runs loads together and swallows the failures the predicate expects.
    static async Task LoadAll(Task[] loads, Func<Exception, bool> isExpected)
    {
        var all = Task.WhenAll(loads);
        try
        {
            await all;
        }
        catch
        {
            all.Exception!.Handle(isExpected);
        }
    }

    // Nothing else here calls user code: reading id.Value would (a property of the app's type).
    static async Task Checked(OrderId id, OrderId max)
    {
        ArgumentOutOfRangeException.ThrowIfEqual(id, default);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(id, max);
        await Pause();
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Current.Value = "caller";
            await LoadAll([Task.FromException(new TimeoutException("a"))], e => { Current.Value = "changed by the predicate"; return e is TimeoutException; });
            Console.WriteLine($"suspend={suspend} handled: caller sees {Current.Value}");

            Current.Value = "caller";
            try
            {
                await LoadAll([Task.FromException(new TimeoutException("b"))], e => { Current.Value = "changed by the predicate"; return false; });
            }
            catch (AggregateException e)
            {
                Console.WriteLine($"suspend={suspend} not handled: {e.InnerExceptions.Count} x {e.InnerException!.Message}");
            }
            Console.WriteLine($"suspend={suspend} not handled: caller sees {Current.Value}");

            Current.Value = "caller";
            var pending = LoadAll([Pause().ContinueWith(_ => throw new TimeoutException("c"))], e => { Current.Value = "changed by the predicate"; return true; });
            await pending;
            Console.WriteLine($"suspend={suspend} after the loads ran: caller sees {Current.Value}");

            Current.Value = "caller";
            await Checked(new OrderId(7), new OrderId(10));
            Console.WriteLine($"suspend={suspend} checked: caller sees {Current.Value}");

            Current.Value = "caller";
            try
            {
                await Checked(new OrderId(11), new OrderId(10));
            }
            catch (ArgumentOutOfRangeException e)
            {
                Console.WriteLine($"suspend={suspend} refused: {e.ParamName}");
            }
            Console.WriteLine($"suspend={suspend} refused: caller sees {Current.Value}");

            // Only without a suspension: after one, classic async lets the caller run on inline, on
            // the thread and under the context the callee left (a difference the README lists).
            if (!suspend)
            {
                await LoadAll([Task.FromException(new TimeoutException("d"))], e =>
                {
                    SynchronizationContext.SetSynchronizationContext(new SynchronizationContext());
                    return true;
                });
                Console.WriteLine($"handled under a context: {(SynchronizationContext.Current is null ? "none" : "set")}");
                SynchronizationContext.SetSynchronizationContext(null);
            }
        }
    }
}
