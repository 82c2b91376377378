// Deep async recursion: chains 10,000 and 30,000 frames deep that never suspend, the same chains suspending
// only at the leaf (every frame then resumes), a recursion carrying many locals across its await, and a
// recursion run on a thread with a small fixed stack so that both builds must fit the same budget.
using System;
using System.Threading;
using System.Threading.Tasks;

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

    static async ValueTask<int> DeepValue(int n)
    {
        if (n == 0)
        {
            if (Suspend) await Task.Yield();
            return 1;
        }
        int below = await DeepValue(n - 1);
        return (below * 3 + n) % 1_000_003;
    }

    static async Task<long> Heavy(int n, long a, long b, string s)
    {
        long c = a * 3, d = b ^ n, e = a + b, f = n * 7L, g = c - d;
        string t = s.Length > 4 ? "" : s + n % 10;
        if (n == 0)
        {
            if (Suspend) await Task.Yield();
            return c + d + e + f + g + t.Length;
        }
        long r = await Heavy(n - 1, e % 1000, f % 1000, t);
        return (r + c + d + e + f + g + t.Length) % 1_000_000_007;
    }

    static async Task Recurse(int n, int[] counter)
    {
        counter[0]++;
        if (n == 0)
        {
            if (Suspend) await Task.Yield();
            return;
        }
        await Recurse(n - 1, counter);
        counter[1]++;
    }

    // every descent starts on a thread with a known 16 MB stack (thread-pool threads have less), and the
    // caller blocks; resumptions after a leaf suspension run wherever the awaited task completes.
    static string OnBigStack(Func<Task<string>> work)
    {
        string result = "";
        var thread = new Thread(() =>
        {
            try { result = work().GetAwaiter().GetResult(); }
            catch (Exception e) { result = e.GetType().Name; }
        }, 16 * 1024 * 1024);
        thread.Start();
        thread.Join();
        return result;
    }

    static async Task Main()
    {
        const int scale = 10_000;
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(OnBigStack(async () => $"Deep({scale}) = {await Deep(scale)}"));
            Console.WriteLine(OnBigStack(async () => $"DeepValue({scale}) = {await DeepValue(scale)}"));
            Console.WriteLine(OnBigStack(async () => $"Heavy({scale}) = {await Heavy(scale, 1, 2, "")}"));
            Console.WriteLine(OnBigStack(async () =>
            {
                var counter = new int[2];
                await Recurse(scale, counter);
                return $"Recurse = {counter[0]} {counter[1]}";
            }));
        }
        await Task.CompletedTask;
    }
}
