// a large frame: one method with 32 locals of mixed types live across 140 awaits, most of which
// have values on the evaluation stack (spilled into extra locals), so the variant has several hundred
// locals and long-form local instructions; another with 70 parameters, all live across awaits.
using System;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;

    static async Task<int> V(int v)
    {
        if (Suspend && v % 3 == 0) await Task.Yield();
        return v;
    }

    static long Mix(long a, int b, long c) => (a * 31 + b * 7 + c) % 1_000_000_007;
    static async Task<string> Large()
    {
        long l0 = 1;
        long l1 = 2;
        long l2 = 3;
        long l3 = 4;
        long l4 = 5;
        long l5 = 6;
        long l6 = 7;
        long l7 = 8;
        long l8 = 9;
        long l9 = 10;
        long l10 = 11;
        long l11 = 12;
        long l12 = 13;
        long l13 = 14;
        long l14 = 15;
        long l15 = 16;
        string s0 = "s0";
        string s1 = "s1";
        string s2 = "s2";
        string s3 = "s3";
        string s4 = "s4";
        string s5 = "s5";
        string s6 = "s6";
        string s7 = "s7";
        double d0 = 0.5;
        double d1 = 1.5;
        double d2 = 2.5;
        double d3 = 3.5;
        double d4 = 4.5;
        double d5 = 5.5;
        double d6 = 6.5;
        double d7 = 7.5;
        l0 = Mix(l3, await V(0), l0);
        s1 = s1.Length > 12 ? "r1" : s1 + await V(1 % 10);
        d2 = d2 * 0.5 + await V(2) + l13 % 7;
        l3 += l2 * await V(3 % 13) - await V(3 % 5);
        l4 = Mix(l7, await V(4), l4);
        s5 = s5.Length > 12 ? "r5" : s5 + await V(5 % 10);
        d6 = d6 * 0.5 + await V(6) + l1 % 7;
        l7 += l6 * await V(7 % 13) - await V(7 % 5);
        l8 = Mix(l11, await V(8), l8);
        s1 = s1.Length > 12 ? "r9" : s1 + await V(9 % 10);
        d2 = d2 * 0.5 + await V(10) + l5 % 7;
        l11 += l10 * await V(11 % 13) - await V(11 % 5);
        l12 = Mix(l15, await V(12), l12);
        s5 = s5.Length > 12 ? "r13" : s5 + await V(13 % 10);
        d6 = d6 * 0.5 + await V(14) + l9 % 7;
        l15 += l14 * await V(15 % 13) - await V(15 % 5);
        l0 = Mix(l3, await V(16), l0);
        s1 = s1.Length > 12 ? "r17" : s1 + await V(17 % 10);
        d2 = d2 * 0.5 + await V(18) + l13 % 7;
        l3 += l2 * await V(19 % 13) - await V(19 % 5);
        l4 = Mix(l7, await V(20), l4);
        s5 = s5.Length > 12 ? "r21" : s5 + await V(21 % 10);
        d6 = d6 * 0.5 + await V(22) + l1 % 7;
        l7 += l6 * await V(23 % 13) - await V(23 % 5);
        l8 = Mix(l11, await V(24), l8);
        s1 = s1.Length > 12 ? "r25" : s1 + await V(25 % 10);
        d2 = d2 * 0.5 + await V(26) + l5 % 7;
        l11 += l10 * await V(27 % 13) - await V(27 % 5);
        l12 = Mix(l15, await V(28), l12);
        s5 = s5.Length > 12 ? "r29" : s5 + await V(29 % 10);
        d6 = d6 * 0.5 + await V(30) + l9 % 7;
        l15 += l14 * await V(31 % 13) - await V(31 % 5);
        l0 = Mix(l3, await V(32), l0);
        s1 = s1.Length > 12 ? "r33" : s1 + await V(33 % 10);
        d2 = d2 * 0.5 + await V(34) + l13 % 7;
        l3 += l2 * await V(35 % 13) - await V(35 % 5);
        l4 = Mix(l7, await V(36), l4);
        s5 = s5.Length > 12 ? "r37" : s5 + await V(37 % 10);
        d6 = d6 * 0.5 + await V(38) + l1 % 7;
        l7 += l6 * await V(39 % 13) - await V(39 % 5);
        l8 = Mix(l11, await V(40), l8);
        s1 = s1.Length > 12 ? "r41" : s1 + await V(41 % 10);
        d2 = d2 * 0.5 + await V(42) + l5 % 7;
        l11 += l10 * await V(43 % 13) - await V(43 % 5);
        l12 = Mix(l15, await V(44), l12);
        s5 = s5.Length > 12 ? "r45" : s5 + await V(45 % 10);
        d6 = d6 * 0.5 + await V(46) + l9 % 7;
        l15 += l14 * await V(47 % 13) - await V(47 % 5);
        l0 = Mix(l3, await V(48), l0);
        s1 = s1.Length > 12 ? "r49" : s1 + await V(49 % 10);
        d2 = d2 * 0.5 + await V(50) + l13 % 7;
        l3 += l2 * await V(51 % 13) - await V(51 % 5);
        l4 = Mix(l7, await V(52), l4);
        s5 = s5.Length > 12 ? "r53" : s5 + await V(53 % 10);
        d6 = d6 * 0.5 + await V(54) + l1 % 7;
        l7 += l6 * await V(55 % 13) - await V(55 % 5);
        l8 = Mix(l11, await V(56), l8);
        s1 = s1.Length > 12 ? "r57" : s1 + await V(57 % 10);
        d2 = d2 * 0.5 + await V(58) + l5 % 7;
        l11 += l10 * await V(59 % 13) - await V(59 % 5);
        l12 = Mix(l15, await V(60), l12);
        s5 = s5.Length > 12 ? "r61" : s5 + await V(61 % 10);
        d6 = d6 * 0.5 + await V(62) + l9 % 7;
        l15 += l14 * await V(63 % 13) - await V(63 % 5);
        l0 = Mix(l3, await V(64), l0);
        s1 = s1.Length > 12 ? "r65" : s1 + await V(65 % 10);
        d2 = d2 * 0.5 + await V(66) + l13 % 7;
        l3 += l2 * await V(67 % 13) - await V(67 % 5);
        l4 = Mix(l7, await V(68), l4);
        s5 = s5.Length > 12 ? "r69" : s5 + await V(69 % 10);
        d6 = d6 * 0.5 + await V(70) + l1 % 7;
        l7 += l6 * await V(71 % 13) - await V(71 % 5);
        l8 = Mix(l11, await V(72), l8);
        s1 = s1.Length > 12 ? "r73" : s1 + await V(73 % 10);
        d2 = d2 * 0.5 + await V(74) + l5 % 7;
        l11 += l10 * await V(75 % 13) - await V(75 % 5);
        l12 = Mix(l15, await V(76), l12);
        s5 = s5.Length > 12 ? "r77" : s5 + await V(77 % 10);
        d6 = d6 * 0.5 + await V(78) + l9 % 7;
        l15 += l14 * await V(79 % 13) - await V(79 % 5);
        l0 = Mix(l3, await V(80), l0);
        s1 = s1.Length > 12 ? "r81" : s1 + await V(81 % 10);
        d2 = d2 * 0.5 + await V(82) + l13 % 7;
        l3 += l2 * await V(83 % 13) - await V(83 % 5);
        l4 = Mix(l7, await V(84), l4);
        s5 = s5.Length > 12 ? "r85" : s5 + await V(85 % 10);
        d6 = d6 * 0.5 + await V(86) + l1 % 7;
        l7 += l6 * await V(87 % 13) - await V(87 % 5);
        l8 = Mix(l11, await V(88), l8);
        s1 = s1.Length > 12 ? "r89" : s1 + await V(89 % 10);
        d2 = d2 * 0.5 + await V(90) + l5 % 7;
        l11 += l10 * await V(91 % 13) - await V(91 % 5);
        l12 = Mix(l15, await V(92), l12);
        s5 = s5.Length > 12 ? "r93" : s5 + await V(93 % 10);
        d6 = d6 * 0.5 + await V(94) + l9 % 7;
        l15 += l14 * await V(95 % 13) - await V(95 % 5);
        l0 = Mix(l3, await V(96), l0);
        s1 = s1.Length > 12 ? "r97" : s1 + await V(97 % 10);
        d2 = d2 * 0.5 + await V(98) + l13 % 7;
        l3 += l2 * await V(99 % 13) - await V(99 % 5);
        l4 = Mix(l7, await V(100), l4);
        s5 = s5.Length > 12 ? "r101" : s5 + await V(101 % 10);
        d6 = d6 * 0.5 + await V(102) + l1 % 7;
        l7 += l6 * await V(103 % 13) - await V(103 % 5);
        l8 = Mix(l11, await V(104), l8);
        s1 = s1.Length > 12 ? "r105" : s1 + await V(105 % 10);
        d2 = d2 * 0.5 + await V(106) + l5 % 7;
        l11 += l10 * await V(107 % 13) - await V(107 % 5);
        l12 = Mix(l15, await V(108), l12);
        s5 = s5.Length > 12 ? "r109" : s5 + await V(109 % 10);
        d6 = d6 * 0.5 + await V(110) + l9 % 7;
        l15 += l14 * await V(111 % 13) - await V(111 % 5);
        l0 = Mix(l3, await V(112), l0);
        s1 = s1.Length > 12 ? "r113" : s1 + await V(113 % 10);
        d2 = d2 * 0.5 + await V(114) + l13 % 7;
        l3 += l2 * await V(115 % 13) - await V(115 % 5);
        l4 = Mix(l7, await V(116), l4);
        s5 = s5.Length > 12 ? "r117" : s5 + await V(117 % 10);
        d6 = d6 * 0.5 + await V(118) + l1 % 7;
        l7 += l6 * await V(119 % 13) - await V(119 % 5);
        l8 = Mix(l11, await V(120), l8);
        s1 = s1.Length > 12 ? "r121" : s1 + await V(121 % 10);
        d2 = d2 * 0.5 + await V(122) + l5 % 7;
        l11 += l10 * await V(123 % 13) - await V(123 % 5);
        l12 = Mix(l15, await V(124), l12);
        s5 = s5.Length > 12 ? "r125" : s5 + await V(125 % 10);
        d6 = d6 * 0.5 + await V(126) + l9 % 7;
        l15 += l14 * await V(127 % 13) - await V(127 % 5);
        l0 = Mix(l3, await V(128), l0);
        s1 = s1.Length > 12 ? "r129" : s1 + await V(129 % 10);
        d2 = d2 * 0.5 + await V(130) + l13 % 7;
        l3 += l2 * await V(131 % 13) - await V(131 % 5);
        l4 = Mix(l7, await V(132), l4);
        s5 = s5.Length > 12 ? "r133" : s5 + await V(133 % 10);
        d6 = d6 * 0.5 + await V(134) + l1 % 7;
        l7 += l6 * await V(135 % 13) - await V(135 % 5);
        l8 = Mix(l11, await V(136), l8);
        s1 = s1.Length > 12 ? "r137" : s1 + await V(137 % 10);
        d2 = d2 * 0.5 + await V(138) + l5 % 7;
        l11 += l10 * await V(139 % 13) - await V(139 % 5);
        long lsum = l0 ^ l1 ^ l2 ^ l3 ^ l4 ^ l5 ^ l6 ^ l7 ^ l8 ^ l9 ^ l10 ^ l11 ^ l12 ^ l13 ^ l14 ^ l15;
        double dsum = d0 + d1 + d2 + d3 + d4 + d5 + d6 + d7;
        return $"{lsum} {dsum:F3} " + s0 + "," + s1 + "," + s2 + "," + s3 + "," + s4 + "," + s5 + "," + s6 + "," + s7;
    }

    static async Task<long> ManyParameters(int p0, int p1, int p2, int p3, int p4, int p5, int p6, int p7, int p8, int p9, int p10, int p11, int p12, int p13, int p14, int p15, int p16, int p17, int p18, int p19, int p20, int p21, int p22, int p23, int p24, int p25, int p26, int p27, int p28, int p29, int p30, int p31, int p32, int p33, int p34, int p35, int p36, int p37, int p38, int p39, int p40, int p41, int p42, int p43, int p44, int p45, int p46, int p47, int p48, int p49, int p50, int p51, int p52, int p53, int p54, int p55, int p56, int p57, int p58, int p59, int p60, int p61, int p62, int p63, int p64, int p65, int p66, int p67, int p68, int p69)
    {
        long acc = 0;
        acc = acc * 3 + p0 + await V(0);
        p1 += await V(1);
        acc = acc * 3 + p7 + await V(7);
        p8 += await V(1);
        acc = acc * 3 + p14 + await V(14);
        p15 += await V(1);
        acc = acc * 3 + p21 + await V(21);
        p22 += await V(1);
        acc = acc * 3 + p28 + await V(28);
        p29 += await V(1);
        acc = acc * 3 + p35 + await V(35);
        p36 += await V(1);
        acc = acc * 3 + p42 + await V(42);
        p43 += await V(1);
        acc = acc * 3 + p49 + await V(49);
        p50 += await V(1);
        acc = acc * 3 + p56 + await V(56);
        p57 += await V(1);
        acc = acc * 3 + p63 + await V(63);
        p64 += await V(1);
        return acc + p0 + p1 + p2 + p3 + p4 + p5 + p6 + p7 + p8 + p9 + p10 + p11 + p12 + p13 + p14 + p15 + p16 + p17 + p18 + p19 + p20 + p21 + p22 + p23 + p24 + p25 + p26 + p27 + p28 + p29 + p30 + p31 + p32 + p33 + p34 + p35 + p36 + p37 + p38 + p39 + p40 + p41 + p42 + p43 + p44 + p45 + p46 + p47 + p48 + p49 + p50 + p51 + p52 + p53 + p54 + p55 + p56 + p57 + p58 + p59 + p60 + p61 + p62 + p63 + p64 + p65 + p66 + p67 + p68 + p69;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Large());
            Console.WriteLine(await ManyParameters(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44, 46, 48, 50, 52, 54, 56, 58, 60, 62, 64, 66, 68, 70, 72, 74, 76, 78, 80, 82, 84, 86, 88, 90, 92, 94, 96, 98, 100, 102, 104, 106, 108, 110, 112, 114, 116, 118, 120, 122, 124, 126, 128, 130, 132, 134, 136, 138));
        }
    }
}
