using System.Reflection;
using Samples.Library;
using Xunit;

namespace Samples.Library.Tests;

public class OrderServiceTests
{
    private static OrderService NewService() =>
        new(new SlowOrderStore(new MemoryOrderStore()), new Dictionary<string, int> { ["apple"] = 2 });

    [Fact]
    public async Task Placing_an_order_reserves_stock()
    {
        var service = NewService();
        Assert.Equal(1, await service.PlaceAsync(1, "apple", 1));
        Assert.Equal(1, await service.TotalAsync(1, 2));
    }

    [Fact]
    public async Task Running_out_of_stock_throws_after_a_suspension()
    {
        var service = NewService();
        await service.PlaceAsync(1, "apple", 2);
        var e = await Assert.ThrowsAsync<OutOfStockException>(() => service.PlaceAsync(2, "apple", 1));
        Assert.Equal("apple is out of stock", e.Message);
    }

    [Fact]
    public async Task Retries_until_an_attempt_succeeds()
    {
        int calls = 0;
        var result = await NewService().WithRetryAsync(async () =>
        {
            await Task.Delay(1);
            return ++calls < 3 ? throw new TimeoutException() : calls;
        }, attempts: 3);
        Assert.Equal(3, result);
    }

    /// <summary>The tests and the library under test both run rewritten: no method is left for the runtime's own runtime async.</summary>
    [Theory]
    [InlineData(typeof(OrderService))]
    [InlineData(typeof(OrderServiceTests))]
    public void Async_methods_were_rewritten(Type type)
    {
        const MethodImplAttributes runtimeAsync = (MethodImplAttributes)0x2000;
        var methods = type.Assembly.GetTypes().SelectMany(t => t.GetMethods(BindingFlags.DeclaredOnly | BindingFlags.Instance | BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic));
        Assert.DoesNotContain(methods, m => (m.MethodImplementationFlags & runtimeAsync) != 0);
        Assert.Contains(type.Assembly.GetReferencedAssemblies(), a => a.Name == "Async2.Runtime");
    }
}
