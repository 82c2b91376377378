using Samples.Library;

// Prints the same transcript whether built classic or with Async2 (samples/README.md).
var service = new OrderService(new SlowOrderStore(new MemoryOrderStore()), new Dictionary<string, int> { ["apple"] = 5, ["pear"] = 1 });

Console.WriteLine($"apples left: {await service.PlaceAsync(1, "apple", 3)}");
Console.WriteLine($"pears left: {await service.PlaceAsync(2, "pear", 1)}");
foreach (var (id, item) in new[] { (3, "pear"), (1, "apple") })
{
    try
    {
        await service.PlaceAsync(id, item, 1);
    }
    catch (Exception e)
    {
        Console.WriteLine($"order {id}: {e.GetType().Name}: {e.Message}");
    }
}
Console.WriteLine($"total: {await service.TotalAsync(1, 2, 3)}");

int calls = 0;
var answer = await service.WithRetryAsync(async () =>
{
    await Task.Yield();
    if (++calls < 3)
        throw new TimeoutException($"attempt {calls}");
    return calls * 14;
}, attempts: 5);
Console.WriteLine($"after {calls} attempts: {answer}");
Console.WriteLine($"fib(25) = {await Fib(25)}");
return 0;

static async Task<int> Fib(int n) => n < 2 ? n : await Fib(n - 1) + await Fib(n - 2);
