// Long evaluation stacks at an await: an await as the 24th argument of a call after 23 operands of mixed
// types (struct, decimal, nullable, string, byref receiver), awaits deep inside nested object and collection
// initializers, array/dictionary initializers with 60 awaited elements, and a 40-term expression chain.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

struct Pt { public int X, Y; public decimal D; public string? S; public override string ToString() => $"({X},{Y},{D},{S})"; }

sealed class Node { public string Name = ""; public int Weight; public List<Node> Kids { get; } = new(); public Dictionary<string, int> Tags { get; } = new(); public Pt Pos; public Node? Next { get; set; }
    public override string ToString() => Name + ":" + Weight + Pos + "[" + string.Join(",", Kids) + "]{" + string.Join(",", Tags) + "}" + (Next is null ? "" : "->" + Next); }

struct Acc
{
    public long Total;
    public string Take(int a0, long a1, double a2, decimal a3, string a4, Pt a5, int? a6, byte a7, float a8, char a9, bool a10, object a11, int a12, long a13, double a14, decimal a15, string a16, Pt a17, int? a18, byte a19, float a20, char a21, bool a22, object a23)
    {
        Total++;
        return string.Join("|", new object?[] { a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21, a22, a23 });
    }
}

static class Program
{
    static bool Suspend;

    static async Task<int> V(int v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static async Task<T> G<T>(T v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static async Task<string> LongArgs()
    {
        var acc = new Acc();
        var r1 = acc.Take(0, 1L*1000000000, 2.25, 3.5m, "s4", new Pt { X = 5, S = "p" }, 6, (byte)7, 8.5f, 'j', true, (object)11, 12, 13L*1000000000, 14.25, 15.5m, "s16", new Pt { X = 17, S = "p" }, 18, (byte)19, 20.5f, 'v', true, await G<object>("last"));
        var r2 = acc.Take(await V(100), 1L*1000000000, 2.25, 3.5m, "s4", await G(new Pt { X = 5, D = 9.75m }), 6, (byte)7, 8.5f, 'j', true, await G<object>("mid"), 12, 13L*1000000000, 14.25, 15.5m, "s16", new Pt { X = 17, S = "p" }, 18, (byte)19, 20.5f, 'v', true, await G<object>("end"));
        var r3 = acc.Take(await G(0), 1L*1000000000, await G(2.25), 3.5m, await G("s4"), new Pt { X = 5, S = "p" }, await G(6), (byte)7, await G(8.5f), 'j', await G(true), (object)11, await G(12), 13L*1000000000, await G(14.25), 15.5m, await G("s16"), new Pt { X = 17, S = "p" }, await G(18), (byte)19, await G(20.5f), 'v', await G(true), await G<object>(7));
        return r1 + "\n" + r2 + "\n" + r3 + "\n" + acc.Total;
    }

    static async Task<string> Initializers()
    {
        var root = new Node
        {
            Name = "root" + await V(1),
            Weight = await V(2) * 10 + await V(3),
            Pos = new Pt { X = await V(4), Y = 5, D = await G(6.5m), S = await G("pos") },
            Kids =
            {
                new Node { Name = "k1", Weight = await V(7), Tags = { ["a"] = await V(8), ["b"] = 9 } },
                new Node
                {
                    Name = "k2",
                    Kids = { new Node { Name = "k21" + await V(10), Next = new Node { Name = "n" + await V(11), Pos = { X = await V(12) } } } },
                },
                await G(new Node { Name = "k3" }),
            },
            Tags = { { "x", await V(13) }, { await G("y"), await V(14) } },
            Next = new Node { Name = "next", Kids = { new Node { Name = "nk", Weight = await V(15) } } },
        };
        return root.ToString();
    }

    static async Task<string> BigCollections()
    {
        var arr = new long[] { await V(0) * 0L, 1, 2, await V(3) * 3L, 4, 5, await V(6) * 6L, 7, 8, await V(9) * 9L, 10, 11, await V(12) * 12L, 13, 14, await V(15) * 15L, 16, 17, await V(18) * 18L, 19, 20, await V(21) * 21L, 22, 23, await V(24) * 24L, 25, 26, await V(27) * 27L, 28, 29, await V(30) * 30L, 31, 32, await V(33) * 33L, 34, 35, await V(36) * 36L, 37, 38, await V(39) * 39L, 40, 41, await V(42) * 42L, 43, 44, await V(45) * 45L, 46, 47, await V(48) * 48L, 49, 50, await V(51) * 51L, 52, 53, await V(54) * 54L, 55, 56, await V(57) * 57L, 58, 59 };
        var list = new List<string> { "c0", "e" + await V(1), "c2", "c3", "c4", "e" + await V(5), "c6", "c7", "c8", "e" + await V(9), "c10", "c11", "c12", "e" + await V(13), "c14", "c15", "c16", "e" + await V(17), "c18", "c19", "c20", "e" + await V(21), "c22", "c23", "c24", "e" + await V(25), "c26", "c27", "c28", "e" + await V(29), "c30", "c31", "c32", "e" + await V(33), "c34", "c35", "c36", "e" + await V(37), "c38", "c39", "c40", "e" + await V(41), "c42", "c43", "c44", "e" + await V(45), "c46", "c47", "c48", "e" + await V(49), "c50", "c51", "c52", "e" + await V(53), "c54", "c55", "c56", "e" + await V(57), "c58", "c59" };
        var dict = new Dictionary<int, string> { [0] = "w0", [1] = "w1", [2] = await G("v2"), [3] = "w3", [4] = "w4", [5] = "w5", [6] = "w6", [7] = await G("v7"), [8] = "w8", [9] = "w9", [10] = "w10", [11] = "w11", [12] = await G("v12"), [13] = "w13", [14] = "w14", [15] = "w15", [16] = "w16", [17] = await G("v17"), [18] = "w18", [19] = "w19", [20] = "w20", [21] = "w21", [22] = await G("v22"), [23] = "w23", [24] = "w24", [25] = "w25", [26] = "w26", [27] = await G("v27"), [28] = "w28", [29] = "w29", [30] = "w30", [31] = "w31", [32] = await G("v32"), [33] = "w33", [34] = "w34", [35] = "w35", [36] = "w36", [37] = await G("v37"), [38] = "w38", [39] = "w39" };
        long h = 0; foreach (var x in arr) h = h * 31 + x;
        return h + " " + string.Concat(list).Length + " " + string.Join("", dict.Values).GetHashCode() * 0 + dict[37] + dict[32] + list[57];
    }

    static async Task<long> Chain()
    {
        long x = await V(0) * 1 + (long)await G(1.5)  + 2 % (await V(2) + 1) + await V(3) * 4 + (long)await G(4.5)  + 5 % (await V(5) + 1) + await V(6) * 7 + (long)await G(7.5)  + 8 % (await V(8) + 1) + await V(9) * 10 + (long)await G(10.5)  + 11 % (await V(11) + 1) + await V(12) * 13 + (long)await G(13.5)  + 14 % (await V(14) + 1) + await V(15) * 16 + (long)await G(16.5)  + 17 % (await V(17) + 1) + await V(18) * 19 + (long)await G(19.5)  + 20 % (await V(20) + 1) + await V(21) * 22 + (long)await G(22.5)  + 23 % (await V(23) + 1) + await V(24) * 25 + (long)await G(25.5)  + 26 % (await V(26) + 1) + await V(27) * 28 + (long)await G(28.5)  + 29 % (await V(29) + 1) + await V(30) * 31 + (long)await G(31.5)  + 32 % (await V(32) + 1) + await V(33) * 34 + (long)await G(34.5)  + 35 % (await V(35) + 1) + await V(36) * 37 + (long)await G(37.5)  + 38 % (await V(38) + 1) + await V(39) * 40;
        long y = x - (await V(0) - (await V(1) - (await V(2) - (await V(3) - (await V(4) - (await V(5) - (await V(6) - (await V(7) - (await V(8) - (await V(9) - (await V(10) - (await V(11) - (await V(12) - (await V(13) - (await V(14) - (await V(15) - (await V(16) - (await V(17) - (await V(18) - (await V(19)))))))))))))))))))));
        return x * 1000 + y;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await LongArgs());
            Console.WriteLine(await Initializers());
            Console.WriteLine(await BigCollections());
            Console.WriteLine(await Chain());
        }
    }
}
