// Methods whose shapes the trimmer's signature parser cannot match, each failing after a
// suspension: a parameter of a type nested in a generic type (also inside a generic argument),
// explicit implementations of interfaces with two type arguments or an array argument. The
// rewriter keeps each such method for the trimmer with [DynamicDependency]; NativeAotTests
// publishes this program trimmed, where a method trimmed away left its stack-trace line naming the
// variant (<Add>d__Async2_0.Add(..., AsyncChain&, ...)) instead of the method.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading.Tasks;

class Catalog<T>
{
    public class Entry { public T? Value; }
    public async Task Add(Entry entry) { await Task.Yield(); throw new InvalidOperationException($"Add {entry.Value}"); }
    public async Task AddAll(List<Entry> entries) { await Task.Yield(); throw new InvalidOperationException($"AddAll {entries.Count}"); }
}

class Outer<T>
{
    public class Middle<U> { public class Inner { } }
    public async Task Deep(Middle<int>.Inner inner) { await Task.Yield(); throw new InvalidOperationException("Deep"); }
}

interface IConvert<A, B> { Task<B> Convert(A value); }
interface IBatch<T> { Task Run(T items); }

class BoolConverter : IConvert<bool, int>
{
    async Task<int> IConvert<bool, int>.Convert(bool value) { await Task.Yield(); throw new InvalidOperationException($"Convert {value}"); }
}

class ArrayBatch : IBatch<int[]>
{
    async Task IBatch<int[]>.Run(int[] items) { await Task.Yield(); throw new InvalidOperationException($"Run {items.Length}"); }
}

static class Program
{
    static async Task Show(Func<Task> call)
    {
        try
        {
            await call();
        }
        catch (InvalidOperationException e)
        {
            Console.WriteLine(e.Message);
            foreach (var line in e.StackTrace!.Split('\n').Select(l => l.Trim()).Where(l => l.StartsWith("at ") && !l.StartsWith("at System.")))
            {
                var text = line;
                if (text.IndexOf(" in ", StringComparison.Ordinal) is > 0 and var file)
                    text = text[..file];
                Console.WriteLine("  " + text);
            }
        }
    }

    static async Task Main()
    {
        await Show(() => new Catalog<int>().Add(new Catalog<int>.Entry { Value = 7 }));
        await Show(() => new Catalog<string>().AddAll([new Catalog<string>.Entry()]));
        await Show(() => new Outer<long>().Deep(new Outer<long>.Middle<int>.Inner()));
        await Show(() => ((IConvert<bool, int>)new BoolConverter()).Convert(true));
        await Show(() => ((IBatch<int[]>)new ArrayBatch()).Run([1, 2, 3]));
    }
}
