using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;
using Contracts;

namespace Plugin;

public record Item(string Name, int Count);

public struct Money { public decimal Amount; public override string ToString() => Amount.ToString("0.00"); }

public sealed class Doubler : IHandler<Item>, IHandler<Money>
{
    public async Task<Item> HandleAsync(Item item)
    {
        if (Pipeline.Suspend) await Task.Yield();
        return item with { Count = item.Count * 2 };
    }

    async Task<Money> IHandler<Money>.HandleAsync(Money m)
    {
        if (Pipeline.Suspend) await Task.Yield();
        return new Money { Amount = m.Amount * 1.5m };
    }
}

public sealed class AddStage : Stage<Item>
{
    public override async Task<Item> RunAsync(Item input)
    {
        if (Suspend) await Task.Yield();
        return input with { Name = input.Name + "+" };
    }
}

public static class Entry
{
    public static async Task<string> RunAsync(bool cancelEarly)
    {
        var d = new Doubler();
        var item = await Pipeline.RunAsync<Item>(d, new Item("a", 1), 3);
        var money = await Pipeline.RunAsync<Money>(d, new Money { Amount = 2 }, 2);
        Stage<Item> stage = new AddStage();
        var staged = await stage.RunTwiceAsync(item);
        using var cts = new CancellationTokenSource();
        if (cancelEarly) cts.Cancel();
        var items = await Pipeline.CollectAsync(Items(), 3, cts.Token);
        var tagged = await Pipeline.TagAsync(async () => { await Task.Yield(); return new Money { Amount = 7 }; }, "t");
        return $"{item} {money} {staged} [{string.Join(",", items)}] {tagged}";
    }

    private static async IAsyncEnumerable<Item> Items([EnumeratorCancellation] CancellationToken token = default)
    {
        for (int i = 0; ; i++)
        {
            if (Pipeline.Suspend) await Task.Yield();
            token.ThrowIfCancellationRequested();
            yield return new Item("i" + i, i);
        }
    }
}
