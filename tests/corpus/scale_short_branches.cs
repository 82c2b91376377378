// Short branches (br.s/brtrue.s/leave.s) whose range the await expansion stretches: tiny if/loop bodies
// around awaits with many live locals, leave.s out of try blocks holding awaits, goto across big blocks.
using System;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;

    static async Task<int> V(int v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static async Task P()
    {
        if (Suspend) await Task.Yield();
    }

    static async Task<long> ShortIfs(int n)
    {
        long x0 = 1;
        long x1 = 2;
        long x2 = 3;
        long x3 = 4;
        long x4 = 5;
        long x5 = 6;
        long x6 = 7;
        long x7 = 8;
        long x8 = 9;
        long x9 = 10;
        long x10 = 11;
        long x11 = 12;
        long x12 = 13;
        long x13 = 14;
        long x14 = 15;
        long x15 = 16;
        long x16 = 17;
        long x17 = 18;
        long x18 = 19;
        long x19 = 20;
        long x20 = 21;
        long x21 = 22;
        long x22 = 23;
        long x23 = 24;
        long h = 0;
        for (int i = 0; i < n; i++)
        {
            if ((i & 1) != 0) x0 += await V(i);
            if ((i & 2) != 0) x1 += await V(i);
            if ((i & 4) != 0) x2 += await V(i);
            if ((i & 8) != 0) x3 += await V(i);
            if ((i & 16) != 0) x4 += await V(i);
            if ((i & 1) != 0) x5 += await V(i);
            if ((i & 2) != 0) x6 += await V(i);
            if ((i & 4) != 0) x7 += await V(i);
            if ((i & 8) != 0) x8 += await V(i);
            if ((i & 16) != 0) x9 += await V(i);
            if ((i & 1) != 0) x10 += await V(i);
            if ((i & 2) != 0) x11 += await V(i);
            if ((i & 4) != 0) x12 += await V(i);
            if ((i & 8) != 0) x13 += await V(i);
            if ((i & 16) != 0) x14 += await V(i);
            if ((i & 1) != 0) x15 += await V(i);
            if ((i & 2) != 0) x16 += await V(i);
            if ((i & 4) != 0) x17 += await V(i);
            if ((i & 8) != 0) x18 += await V(i);
            if ((i & 16) != 0) x19 += await V(i);
            if ((i & 1) != 0) x20 += await V(i);
            if ((i & 2) != 0) x21 += await V(i);
            if ((i & 4) != 0) x22 += await V(i);
            if ((i & 8) != 0) x23 += await V(i);
        }
        h = (x0 << 0) ^ (x1 << 1) ^ (x2 << 2) ^ (x3 << 3) ^ (x4 << 4) ^ (x5 << 5) ^ (x6 << 6) ^ (x7 << 7) ^ (x8 << 8) ^ (x9 << 9) ^ (x10 << 10) ^ (x11 << 11) ^ (x12 << 12) ^ (x13 << 0) ^ (x14 << 1) ^ (x15 << 2) ^ (x16 << 3) ^ (x17 << 4) ^ (x18 << 5) ^ (x19 << 6) ^ (x20 << 7) ^ (x21 << 8) ^ (x22 << 9) ^ (x23 << 10);
        return h;
    }

    static async Task<long> TinyLoops(int n)
    {
        long x0 = 1;
        long x1 = 2;
        long x2 = 3;
        long x3 = 4;
        long x4 = 5;
        long x5 = 6;
        long x6 = 7;
        long x7 = 8;
        long x8 = 9;
        long x9 = 10;
        long x10 = 11;
        long x11 = 12;
        long x12 = 13;
        long x13 = 14;
        long x14 = 15;
        long x15 = 16;
        long x16 = 17;
        long x17 = 18;
        long x18 = 19;
        long x19 = 20;
        long x20 = 21;
        long x21 = 22;
        long x22 = 23;
        long x23 = 24;
        long h = 0;
        int j0 = 0;
        do x0 += await V(j0); while (++j0 < n);
        while (j0 > 0) { await P(); j0--; }
        int j1 = 0;
        do x1 += await V(j1); while (++j1 < n);
        while (j1 > 0) { await P(); j1--; }
        int j2 = 0;
        do x2 += await V(j2); while (++j2 < n);
        while (j2 > 0) { await P(); j2--; }
        int j3 = 0;
        do x3 += await V(j3); while (++j3 < n);
        while (j3 > 0) { await P(); j3--; }
        int j4 = 0;
        do x4 += await V(j4); while (++j4 < n);
        while (j4 > 0) { await P(); j4--; }
        int j5 = 0;
        do x5 += await V(j5); while (++j5 < n);
        while (j5 > 0) { await P(); j5--; }
        int j6 = 0;
        do x6 += await V(j6); while (++j6 < n);
        while (j6 > 0) { await P(); j6--; }
        int j7 = 0;
        do x7 += await V(j7); while (++j7 < n);
        while (j7 > 0) { await P(); j7--; }
        h = (x0 << 0) ^ (x1 << 1) ^ (x2 << 2) ^ (x3 << 3) ^ (x4 << 4) ^ (x5 << 5) ^ (x6 << 6) ^ (x7 << 7) ^ (x8 << 8) ^ (x9 << 9) ^ (x10 << 10) ^ (x11 << 11) ^ (x12 << 12) ^ (x13 << 0) ^ (x14 << 1) ^ (x15 << 2) ^ (x16 << 3) ^ (x17 << 4) ^ (x18 << 5) ^ (x19 << 6) ^ (x20 << 7) ^ (x21 << 8) ^ (x22 << 9) ^ (x23 << 10);
        return h + j0;
    }

    static async Task<long> TryLeaves(int n)
    {
        long x0 = 1;
        long x1 = 2;
        long x2 = 3;
        long x3 = 4;
        long x4 = 5;
        long x5 = 6;
        long x6 = 7;
        long x7 = 8;
        long x8 = 9;
        long x9 = 10;
        long x10 = 11;
        long x11 = 12;
        long x12 = 13;
        long x13 = 14;
        long x14 = 15;
        long x15 = 16;
        long x16 = 17;
        long x17 = 18;
        long x18 = 19;
        long x19 = 20;
        long x20 = 21;
        long x21 = 22;
        long x22 = 23;
        long x23 = 24;
        long h = 0;
        for (int i = 0; i < n; i++)
        {
            try { x0 += await V(i); if (i == 0) continue; } catch (InvalidOperationException) { x0 = -1; } finally { x6++; }
            try { if (i == 0+1) throw new InvalidOperationException(); x12 += await V(1); } catch (InvalidOperationException) { x12 += await V(100); }
            try { x1 += await V(i); if (i == 1) continue; } catch (InvalidOperationException) { x1 = -1; } finally { x7++; }
            try { if (i == 1+1) throw new InvalidOperationException(); x13 += await V(1); } catch (InvalidOperationException) { x13 += await V(100); }
            try { x2 += await V(i); if (i == 2) continue; } catch (InvalidOperationException) { x2 = -1; } finally { x8++; }
            try { if (i == 2+1) throw new InvalidOperationException(); x14 += await V(1); } catch (InvalidOperationException) { x14 += await V(100); }
            try { x3 += await V(i); if (i == 3) continue; } catch (InvalidOperationException) { x3 = -1; } finally { x9++; }
            try { if (i == 3+1) throw new InvalidOperationException(); x15 += await V(1); } catch (InvalidOperationException) { x15 += await V(100); }
            try { x4 += await V(i); if (i == 4) continue; } catch (InvalidOperationException) { x4 = -1; } finally { x10++; }
            try { if (i == 4+1) throw new InvalidOperationException(); x16 += await V(1); } catch (InvalidOperationException) { x16 += await V(100); }
            try { x5 += await V(i); if (i == 5) continue; } catch (InvalidOperationException) { x5 = -1; } finally { x11++; }
            try { if (i == 5+1) throw new InvalidOperationException(); x17 += await V(1); } catch (InvalidOperationException) { x17 += await V(100); }
        }
        h = (x0 << 0) ^ (x1 << 1) ^ (x2 << 2) ^ (x3 << 3) ^ (x4 << 4) ^ (x5 << 5) ^ (x6 << 6) ^ (x7 << 7) ^ (x8 << 8) ^ (x9 << 9) ^ (x10 << 10) ^ (x11 << 11) ^ (x12 << 12) ^ (x13 << 0) ^ (x14 << 1) ^ (x15 << 2) ^ (x16 << 3) ^ (x17 << 4) ^ (x18 << 5) ^ (x19 << 6) ^ (x20 << 7) ^ (x21 << 8) ^ (x22 << 9) ^ (x23 << 10);
        return h;
    }

    static async Task<string> GotoAcross(int start)
    {
        long x0 = 1;
        long x1 = 2;
        long x2 = 3;
        long x3 = 4;
        long x4 = 5;
        long x5 = 6;
        long x6 = 7;
        long x7 = 8;
        long x8 = 9;
        long x9 = 10;
        long x10 = 11;
        long x11 = 12;
        long x12 = 13;
        long x13 = 14;
        long x14 = 15;
        long x15 = 16;
        long x16 = 17;
        long x17 = 18;
        long x18 = 19;
        long x19 = 20;
        long x20 = 21;
        long x21 = 22;
        long x22 = 23;
        long x23 = 24;
        string log = "";
        int state = start;
        int steps = 0;
    again:
        if (++steps > 20) goto done;
        if (state == 0) goto s0;
        if (state == 1) goto s1;
        if (state == 2) goto s2;
        goto done;
    s0:
        x0 = x0 * 3 + await V(0) + x1;
        x1 = x1 * 3 + await V(1) + x2;
        x2 = x2 * 3 + await V(2) + x3;
        x3 = x3 * 3 + await V(3) + x4;
        x4 = x4 * 3 + await V(4) + x5;
        x5 = x5 * 3 + await V(5) + x6;
        x6 = x6 * 3 + await V(6) + x7;
        x7 = x7 * 3 + await V(7) + x8;
        log += "0";
        state = (int)((x0 + await V(state)) % 4);
        goto again;
    s1:
        x8 = x8 * 3 + await V(0) + x9;
        x9 = x9 * 3 + await V(1) + x10;
        x10 = x10 * 3 + await V(2) + x11;
        x11 = x11 * 3 + await V(3) + x12;
        x12 = x12 * 3 + await V(4) + x13;
        x13 = x13 * 3 + await V(5) + x14;
        x14 = x14 * 3 + await V(6) + x15;
        x15 = x15 * 3 + await V(7) + x16;
        log += "1";
        state = (int)((x1 + await V(state)) % 4);
        goto again;
    s2:
        x16 = x16 * 3 + await V(0) + x17;
        x17 = x17 * 3 + await V(1) + x18;
        x18 = x18 * 3 + await V(2) + x19;
        x19 = x19 * 3 + await V(3) + x20;
        x20 = x20 * 3 + await V(4) + x21;
        x21 = x21 * 3 + await V(5) + x22;
        x22 = x22 * 3 + await V(6) + x23;
        x23 = x23 * 3 + await V(7) + x0;
        log += "2";
        state = (int)((x2 + await V(state)) % 4);
        goto again;
    done:
        long h = 0;
        h = (x0 << 0) ^ (x1 << 1) ^ (x2 << 2) ^ (x3 << 3) ^ (x4 << 4) ^ (x5 << 5) ^ (x6 << 6) ^ (x7 << 7) ^ (x8 << 8) ^ (x9 << 9) ^ (x10 << 10) ^ (x11 << 11) ^ (x12 << 12) ^ (x13 << 0) ^ (x14 << 1) ^ (x15 << 2) ^ (x16 << 3) ^ (x17 << 4) ^ (x18 << 5) ^ (x19 << 6) ^ (x20 << 7) ^ (x21 << 8) ^ (x22 << 9) ^ (x23 << 10);
        return log + " " + h;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await ShortIfs(40));
            Console.WriteLine(await TinyLoops(5));
            Console.WriteLine(await TryLeaves(9));
            Console.WriteLine(await GotoAcross(0) + " " + await GotoAcross(2));
        }
    }
}
