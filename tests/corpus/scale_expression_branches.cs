// Awaits in branching expressions with operands below them: a 60-arm switch expression as the 6th
// argument of a call, a 20-deep nested conditional with an await in every arm, ?? chains and &&/|| chains of
// 30 awaits, and a 40-hole interpolated string whose holes await.
using System;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;

    static async Task<int> V(int v)
    {
        if (Suspend && v % 3 != 1) await Task.Yield();
        return v;
    }

    static async Task<string?> N(int v)
    {
        if (Suspend) await Task.Yield();
        return v % 9 == 8 ? "n" + v : null;
    }

    static async Task<bool> B(int v)
    {
        if (Suspend && v % 2 == 0) await Task.Yield();
        return v % 11 != 10;
    }

    static string Six(int a, long b, string c, decimal d, double e, int f, string g) => $"{a}/{b}/{c}/{d}/{e}/{f}/{g}";

    static async Task<string> SwitchArms(int k)
    {
        return Six(k, 10L * k, "c" + k, 1.5m, k * 0.5, k switch
        {
            0 => await V(0) * 0 + await V(1),
            1 when k > 0 => -await V(1),
            2 => 2,
            3 => await V(3) * 3 + await V(1),
            4 when k > 2 => -await V(4),
            5 => 5,
            6 => await V(6) * 6 + await V(1),
            7 when k > 3 => -await V(7),
            8 => 8,
            9 => await V(9) * 9 + await V(1),
            10 when k > 5 => -await V(10),
            11 => 11,
            12 => await V(12) * 12 + await V(1),
            13 when k > 6 => -await V(13),
            14 => 14,
            15 => await V(15) * 15 + await V(1),
            16 when k > 8 => -await V(16),
            17 => 17,
            18 => await V(18) * 18 + await V(1),
            19 when k > 9 => -await V(19),
            20 => 20,
            21 => await V(21) * 21 + await V(1),
            22 when k > 11 => -await V(22),
            23 => 23,
            24 => await V(24) * 24 + await V(1),
            25 when k > 12 => -await V(25),
            26 => 26,
            27 => await V(27) * 27 + await V(1),
            28 when k > 14 => -await V(28),
            29 => 29,
            30 => await V(30) * 30 + await V(1),
            31 when k > 15 => -await V(31),
            32 => 32,
            33 => await V(33) * 33 + await V(1),
            34 when k > 17 => -await V(34),
            35 => 35,
            36 => await V(36) * 36 + await V(1),
            37 when k > 18 => -await V(37),
            38 => 38,
            39 => await V(39) * 39 + await V(1),
            40 when k > 20 => -await V(40),
            41 => 41,
            42 => await V(42) * 42 + await V(1),
            43 when k > 21 => -await V(43),
            44 => 44,
            45 => await V(45) * 45 + await V(1),
            46 when k > 23 => -await V(46),
            47 => 47,
            48 => await V(48) * 48 + await V(1),
            49 when k > 24 => -await V(49),
            50 => 50,
            51 => await V(51) * 51 + await V(1),
            52 when k > 26 => -await V(52),
            53 => 53,
            54 => await V(54) * 54 + await V(1),
            55 when k > 27 => -await V(55),
            56 => 56,
            57 => await V(57) * 57 + await V(1),
            58 when k > 29 => -await V(58),
            59 => 59,
            _ => await V(-1),
        }, await N(k) ?? "none");
    }

    static async Task<long> Ternaries(int x)
    {
        long head = x * 1000L;
        return head + (x > 0 ? (x % 2 == 0 ? await V(0) : 0) + 0 : (x > 5 ? (x % 2 == 0 ? await V(1) : 1) + 1 : (x > 10 ? (x % 2 == 0 ? await V(2) : 2) + 2 : (x > 15 ? (x % 2 == 0 ? await V(3) : 3) + 3 : (x > 20 ? (x % 2 == 0 ? await V(4) : 4) + 4 : (x > 25 ? (x % 2 == 0 ? await V(5) : 5) + 5 : (x > 30 ? (x % 2 == 0 ? await V(6) : 6) + 6 : (x > 35 ? (x % 2 == 0 ? await V(7) : 7) + 7 : (x > 40 ? (x % 2 == 0 ? await V(8) : 8) + 8 : (x > 45 ? (x % 2 == 0 ? await V(9) : 9) + 9 : (x > 50 ? (x % 2 == 0 ? await V(10) : 10) + 10 : (x > 55 ? (x % 2 == 0 ? await V(11) : 11) + 11 : (x > 60 ? (x % 2 == 0 ? await V(12) : 12) + 12 : (x > 65 ? (x % 2 == 0 ? await V(13) : 13) + 13 : (x > 70 ? (x % 2 == 0 ? await V(14) : 14) + 14 : (x > 75 ? (x % 2 == 0 ? await V(15) : 15) + 15 : (x > 80 ? (x % 2 == 0 ? await V(16) : 16) + 16 : (x > 85 ? (x % 2 == 0 ? await V(17) : 17) + 17 : (x > 90 ? (x % 2 == 0 ? await V(18) : 18) + 18 : (x > 95 ? (x % 2 == 0 ? await V(19) : 19) + 19 : await V(-1))))))))))))))))))))) * 7;
    }

    static async Task<string> Coalesce(int s)
    {
        return "[" + (await N(s + 0) ?? await N(s + 1) ?? await N(s + 2) ?? await N(s + 3) ?? await N(s + 4) ?? await N(s + 5) ?? await N(s + 6) ?? await N(s + 7) ?? await N(s + 8) ?? await N(s + 9) ?? await N(s + 10) ?? await N(s + 11) ?? "all-null") + "]";
    }

    static async Task<string> Logic(int s)
    {
        bool all = await B(s + 0) && await B(s + 1) && await B(s + 2) && await B(s + 3) && await B(s + 4) && await B(s + 5) && await B(s + 6) && await B(s + 7) && await B(s + 8) && await B(s + 9) && await B(s + 10) && await B(s + 11) && await B(s + 12) && await B(s + 13) && await B(s + 14) && await B(s + 15) && await B(s + 16) && await B(s + 17) && await B(s + 18) && await B(s + 19) && await B(s + 20) && await B(s + 21) && await B(s + 22) && await B(s + 23) && await B(s + 24) && await B(s + 25) && await B(s + 26) && await B(s + 27) && await B(s + 28) && await B(s + 29);
        bool any = !await B(s * 3 + 0) || !await B(s * 3 + 1) || !await B(s * 3 + 2) || !await B(s * 3 + 3) || !await B(s * 3 + 4) || !await B(s * 3 + 5) || !await B(s * 3 + 6) || !await B(s * 3 + 7) || !await B(s * 3 + 8) || !await B(s * 3 + 9) || !await B(s * 3 + 10) || !await B(s * 3 + 11) || !await B(s * 3 + 12) || !await B(s * 3 + 13) || !await B(s * 3 + 14) || !await B(s * 3 + 15) || !await B(s * 3 + 16) || !await B(s * 3 + 17) || !await B(s * 3 + 18) || !await B(s * 3 + 19) || !await B(s * 3 + 20) || !await B(s * 3 + 21) || !await B(s * 3 + 22) || !await B(s * 3 + 23) || !await B(s * 3 + 24) || !await B(s * 3 + 25) || !await B(s * 3 + 26) || !await B(s * 3 + 27) || !await B(s * 3 + 28) || !await B(s * 3 + 29);
        int count = (all ? 1 : 0) + (any ? 2 : 0) + (await B(s) & await B(s + 10) ? 4 : 0) + (await B(s + 1) ^ await B(s + 9) ? 8 : 0);
        return $"{s}:{all}:{any}:{count}";
    }

    static async Task<string> Holes(int s)
    {
        return $"{await V(s + 0)}:{await V(s + 1)}-{await V(s + 2)}:{await V(s + 3)}-{await V(s + 4)}:{await V(s + 5)}-{await V(s + 6)}:{await V(s + 7)}-{await V(s + 8)}:{await V(s + 9)}-{await V(s + 10)}:{await V(s + 11)}-{await V(s + 12)}:{await V(s + 13)}-{await V(s + 14)}:{await V(s + 15)}-{await V(s + 16)}:{await V(s + 17)}-{await V(s + 18)}:{await V(s + 19)}-{await V(s + 20)}:{await V(s + 21)}-{await V(s + 22)}:{await V(s + 23)}-{await V(s + 24)}:{await V(s + 25)}-{await V(s + 26)}:{await V(s + 27)}-{await V(s + 28)}:{await V(s + 29)}-{await V(s + 30)}:{await V(s + 31)}-{await V(s + 32)}:{await V(s + 33)}-{await V(s + 34)}:{await V(s + 35)}-{await V(s + 36)}:{await V(s + 37)}-{await V(s + 38)}:{await V(s + 39)}-";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            for (int k = 0; k < 64; k += 5) Console.WriteLine(await SwitchArms(k));
            long t = 0;
            for (int x = -3; x < 110; x += 4) t = t * 31 + await Ternaries(x);
            Console.WriteLine(t);
            for (int s = 0; s < 20; s += 3) Console.WriteLine(await Coalesce(s) + " " + await Logic(s));
            Console.WriteLine(await Holes(7));
        }
    }
}
