namespace Samples.Library;

public sealed record Order(int Id, string Item, int Quantity);

/// <summary>Where orders are kept; one implementation answers at once, one takes its time.</summary>
public interface IOrderStore
{
    Task<Order?> FindAsync(int id);
    Task SaveAsync(Order order);
}

public sealed class MemoryOrderStore : IOrderStore
{
    private readonly Dictionary<int, Order> orders = [];

    public Task<Order?> FindAsync(int id) => Task.FromResult(orders.GetValueOrDefault(id));

    public async Task SaveAsync(Order order)
    {
        await Task.Yield();
        orders[order.Id] = order;
    }
}

/// <summary>A store that waits on a timer for every read, as a remote one would.</summary>
public class SlowOrderStore(IOrderStore inner) : IOrderStore
{
    public virtual async Task<Order?> FindAsync(int id)
    {
        await Task.Delay(1);
        return await inner.FindAsync(id);
    }

    public Task SaveAsync(Order order) => inner.SaveAsync(order);
}

public sealed class OutOfStockException(string item) : Exception($"{item} is out of stock");

public sealed class OrderService(IOrderStore store, IReadOnlyDictionary<string, int> stock)
{
    private readonly Dictionary<string, int> remaining = new(stock);

    public async Task<int> PlaceAsync(int id, string item, int quantity)
    {
        if (await store.FindAsync(id) is not null)
            throw new InvalidOperationException($"order {id} exists");
        await ReserveAsync(item, quantity);
        await store.SaveAsync(new Order(id, item, quantity));
        return remaining[item];
    }

    public async Task<int> TotalAsync(params int[] ids)
    {
        int total = 0;
        foreach (var id in ids)
            total += (await store.FindAsync(id))?.Quantity ?? 0;
        return total;
    }

    public async ValueTask<T> WithRetryAsync<T>(Func<Task<T>> attempt, int attempts)
    {
        for (int i = 1; ; i++)
        {
            try
            {
                return await attempt();
            }
            catch (Exception) when (i < attempts)
            {
                await Task.Yield();
            }
        }
    }

    private async Task ReserveAsync(string item, int quantity)
    {
        await Task.Yield();
        if (remaining.GetValueOrDefault(item) < quantity)
            throw new OutOfStockException(item);
        remaining[item] -= quantity;
    }
}
