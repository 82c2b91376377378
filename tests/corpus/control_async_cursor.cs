// awaits inside loop conditions: while (await cursor.MoveNextAsync()) over a hand-written async
// cursor class (ValueTask<bool> MoveNextAsync), for-loop conditions and do-while conditions awaiting.
using System;
using System.Threading.Tasks;

sealed class Cursor
{
    private readonly int[] data;
    private readonly bool suspend;
    private int index = -1;

    public Cursor(int[] data, bool suspend)
    {
        this.data = data;
        this.suspend = suspend;
    }

    public int Current => data[index];

    public async ValueTask<bool> MoveNextAsync()
    {
        if (suspend) await Task.Yield();
        index++;
        return index < data.Length;
    }

    public async Task CloseAsync()
    {
        if (suspend) await Task.Delay(1);
        Console.WriteLine($"  cursor closed at {index}");
    }
}

static class Program
{
    static async Task<int> Sum(Cursor cursor)
    {
        int sum = 0;
        while (await cursor.MoveNextAsync())
            sum += cursor.Current;
        await cursor.CloseAsync();
        return sum;
    }

    static async Task<string> TakeWhilePositive(Cursor cursor)
    {
        var text = "";
        for (bool more = await cursor.MoveNextAsync(); more && cursor.Current > 0; more = await cursor.MoveNextAsync())
            text += cursor.Current + " ";
        await cursor.CloseAsync();
        return text.TrimEnd();
    }

    static async Task<int> CountPairs(Cursor cursor)
    {
        int pairs = 0;
        if (!await cursor.MoveNextAsync()) return 0;
        int previous;
        do
        {
            previous = cursor.Current;
        } while (await cursor.MoveNextAsync() && (cursor.Current == previous ? ++pairs : pairs) >= 0);
        return pairs;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine($"Sum = {await Sum(new Cursor(new[] { 1, 2, 3, 4, 5 }, suspend))}");
            Console.WriteLine($"Sum(empty) = {await Sum(new Cursor(Array.Empty<int>(), suspend))}");
            Console.WriteLine($"TakeWhilePositive = {await TakeWhilePositive(new Cursor(new[] { 3, 1, 4, -1, 5 }, suspend))}");
            Console.WriteLine($"CountPairs = {await CountPairs(new Cursor(new[] { 1, 1, 2, 3, 3, 3, 4 }, suspend))}");
            Console.WriteLine($"CountPairs(empty) = {await CountPairs(new Cursor(Array.Empty<int>(), suspend))}");
        }
    }
}
