// recursion through awaits: a chain 2000 frames deep that suspends at the leaf and resumes every
// frame, mutual recursion between two methods, recursion that suspends at every level, and a tree
// walk whose branches are awaited one after the other.
using System;
using System.Threading.Tasks;

sealed class Node
{
    public int Value;
    public Node? Left, Right;
    public Node(int value, Node? left = null, Node? right = null) { Value = value; Left = left; Right = right; }
}

static class Program
{
    static bool Suspend;

    static async Task<long> Deep(int n)
    {
        if (n == 0)
        {
            if (Suspend) await Task.Yield();
            return 0;
        }
        return n + await Deep(n - 1);
    }

    static async Task<int> EveryLevel(int n)
    {
        if (Suspend) await Task.Yield();
        if (n == 0) return 1;
        int below = await EveryLevel(n - 1);
        if (Suspend) await Task.Delay(0);
        return below * 2 % 1_000_003;
    }

    static async Task<bool> IsEven(int n) => n == 0 || await IsOdd(n - 1);

    static async Task<bool> IsOdd(int n)
    {
        if (Suspend && n % 7 == 0) await Task.Yield();
        return n != 0 && await IsEven(n - 1);
    }

    static async Task<string> Walk(Node? node)
    {
        if (node is null) return "";
        if (Suspend && node.Value % 2 == 0) await Task.Yield();
        return "(" + await Walk(node.Left) + node.Value + await Walk(node.Right) + ")";
    }

    static async Task<int> Sum(Node? node)
    {
        if (node is null) return 0;
        return node.Value + await Sum(node.Left) + await Sum(node.Right);
    }

    static async Task Main()
    {
        var tree = new Node(4, new Node(2, new Node(1), new Node(3)), new Node(6, new Node(5), new Node(7, null, new Node(8))));
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine($"Deep(2000) = {await Deep(2000)}");
            Console.WriteLine($"EveryLevel(200) = {await EveryLevel(200)}");
            Console.WriteLine($"IsEven(301) = {await IsEven(301)}, IsEven(500) = {await IsEven(500)}");
            Console.WriteLine($"Walk = {await Walk(tree)} Sum = {await Sum(tree)}");
        }
    }
}
