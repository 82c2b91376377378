// goto-based loops with awaits before and after labels, jumping backwards and forwards
// across awaits, goto out of nested loops.
using System;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;

    static async Task<int> Value(int v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static async Task<string> GotoLoop(int limit)
    {
        var log = "";
        int i = 0;
    top:
        log += await Value(i);
        i++;
        if (i < limit) goto top;
        return log;
    }

    static async Task<int> GotoOutOfNested()
    {
        int found = -1;
        for (int i = 0; i < 10; i++)
        {
            for (int j = 0; j < 10; j++)
            {
                if (await Value(i * j) == 42)
                {
                    found = i * 100 + j;
                    goto done;
                }
            }
        }
    done:
        return found + await Value(0);
    }

    static async Task<string> StateMachineByHand(int input)
    {
        var log = "";
        int state = await Value(input);
    dispatch:
        switch (state)
        {
            case 0:
                log += "s0 ";
                state = await Value(2);
                goto dispatch;
            case 1:
                log += "s1 ";
                goto finish;
            case 2:
                log += "s2 ";
                state = await Value(1);
                goto dispatch;
        }
        log += "unknown ";
    finish:
        log += "end";
        return log;
    }

    static async Task<int> ForwardSkip(bool skip)
    {
        int x = await Value(1);
        if (skip) goto after;
        x += await Value(10);
        x *= 3;
    after:
        x += await Value(100);
        return x;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine($"GotoLoop(6) = {await GotoLoop(6)}");
            Console.WriteLine($"GotoOutOfNested = {await GotoOutOfNested()}");
            Console.WriteLine($"StateMachineByHand(0) = {await StateMachineByHand(0)}");
            Console.WriteLine($"StateMachineByHand(7) = {await StateMachineByHand(7)}");
            Console.WriteLine($"ForwardSkip(true) = {await ForwardSkip(true)}");
            Console.WriteLine($"ForwardSkip(false) = {await ForwardSkip(false)}");
        }
    }
}
