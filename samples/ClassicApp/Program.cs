using Samples.Library;

var service = new OrderService(new MemoryOrderStore(), new Dictionary<string, int> { ["plum"] = 2 });
Console.WriteLine($"plums left: {await service.PlaceAsync(7, "plum", 2)}");
try
{
    await service.PlaceAsync(8, "plum", 1);
}
catch (OutOfStockException e)
{
    Console.WriteLine(e.Message);
}
Console.WriteLine($"total: {await service.TotalAsync(7, 8)}");
