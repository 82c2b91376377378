// Async methods on mutable structs: the method works on a copy of the instance taken at entry (as
// classic async does), so mutations inside it are invisible to the caller whether or not it
// suspends; the caller's variable, a field, an array element and a boxed copy are each checked
// after the call, and an async method returns the mutated copy so the caller can observe it.
using System;
using System.Threading.Tasks;

struct Counter
{
    public int Value;
    public string Log;

    public async Task<int> IncrementTwice()
    {
        Value++;
        Log += "a";
        await Program.Pause();
        Value++;
        Log += "b";
        return Value;
    }

    public async Task<Counter> Advanced(int by)
    {
        for (int i = 0; i < by; i++)
        {
            await Program.Pause();
            Value += 10;
        }
        return this; // the copy, mutated
    }

    public async Task<string> CallsOwnMethods()
    {
        int a = await IncrementTwice();   // on a copy of this method's copy
        Value += 100;
        int b = await IncrementTwice();
        return $"{a} {b} {Value}";
    }

    public override string ToString() => $"Counter({Value},{Log})";
}

sealed class Owner
{
    public Counter Field;
    public Counter Property { get; set; }
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            var c = new Counter { Value = 1, Log = "" };
            Console.WriteLine($"local: returned {await c.IncrementTwice()}, now {c}");
            c = await c.Advanced(2);
            Console.WriteLine($"reassigned from result: {c}");
            Console.WriteLine($"own methods: {await c.CallsOwnMethods()}, now {c}");

            var o = new Owner { Field = new Counter { Value = 5, Log = "f" } };
            Console.WriteLine($"field: {await o.Field.IncrementTwice()}, now {o.Field}");
            o.Property = new Counter { Value = 7, Log = "p" };
            Console.WriteLine($"property: {await o.Property.IncrementTwice()}, now {o.Property}");

            var arr = new[] { new Counter { Value = 20 } };
            Console.WriteLine($"element: {await arr[0].IncrementTwice()}, now {arr[0]}");

            object boxed = new Counter { Value = 30 };
            Console.WriteLine($"boxed: {await ((Counter)boxed).IncrementTwice()}, now {boxed}");
        }
    }
}
