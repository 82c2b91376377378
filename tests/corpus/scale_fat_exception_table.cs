// A rewritten method far over 64 KB of IL with exception regions throughout: 40 locals live across every
// await (so each suspension point saves and restores all of them), 60 try/catch/finally blocks, each awaiting in
// its try, catch and finally, exceptions thrown late in the method and caught by handlers past offset 65,535,
// so the exception table needs the fat format and long handler lengths.
using System;
using System.Threading.Tasks;

sealed class StepException(int step) : Exception("step " + step) { public int Step = step; }

static class Program
{
    static bool Suspend;

    static async Task<int> V(int v)
    {
        if (Suspend && v % 4 != 3) await Task.Yield();
        return v;
    }

    static async Task<string> Long(int failAt)
    {
        long v0 = 1;
        long v1 = 4;
        long v2 = 7;
        long v3 = 10;
        long v4 = 13;
        long v5 = 16;
        long v6 = 19;
        long v7 = 22;
        long v8 = 25;
        long v9 = 28;
        long v10 = 31;
        long v11 = 34;
        long v12 = 37;
        long v13 = 40;
        long v14 = 43;
        long v15 = 46;
        long v16 = 49;
        long v17 = 52;
        long v18 = 55;
        long v19 = 58;
        long v20 = 61;
        long v21 = 64;
        long v22 = 67;
        long v23 = 70;
        long v24 = 73;
        long v25 = 76;
        long v26 = 79;
        long v27 = 82;
        long v28 = 85;
        long v29 = 88;
        long v30 = 91;
        long v31 = 94;
        long v32 = 97;
        long v33 = 100;
        long v34 = 103;
        long v35 = 106;
        long v36 = 109;
        long v37 = 112;
        long v38 = 115;
        long v39 = 118;
        string log = "";
        try
        {
            try
            {
                v0 = v0 * 3 + await V(0) + v3;
                if (failAt == 0) throw new StepException(0);
                v3 ^= await V(0 + 1);
            }
            catch (StepException e) when (e.Step % 2 == 0)
            {
                log += "c0";
                v0 += await V(e.Step);
            }
            finally
            {
                v1 += await V(0 % 5);
            }
            try
            {
                v1 = v1 * 3 + await V(1) + v10;
                if (failAt == 1) throw new StepException(1);
                v10 ^= await V(1 + 1);
            }
            finally
            {
                v2 += await V(1 % 5);
            }
            try
            {
                v2 = v2 * 3 + await V(2) + v17;
                if (failAt == 2) throw new StepException(2);
                v17 ^= await V(2 + 1);
            }
            finally
            {
                v3 += await V(2 % 5);
            }
            try
            {
                v3 = v3 * 3 + await V(3) + v24;
                if (failAt == 3) throw new StepException(3);
                v24 ^= await V(3 + 1);
            }
            catch (StepException e) when (e.Step % 2 == 0)
            {
                log += "c3";
                v3 += await V(e.Step);
            }
            finally
            {
                v4 += await V(3 % 5);
            }
            try
            {
                v4 = v4 * 3 + await V(4) + v31;
                if (failAt == 4) throw new StepException(4);
                v31 ^= await V(4 + 1);
            }
            finally
            {
                v5 += await V(4 % 5);
            }
            try
            {
                v5 = v5 * 3 + await V(5) + v38;
                if (failAt == 5) throw new StepException(5);
                v38 ^= await V(5 + 1);
            }
            finally
            {
                v6 += await V(5 % 5);
            }
            try
            {
                v6 = v6 * 3 + await V(6) + v5;
                if (failAt == 6) throw new StepException(6);
                v5 ^= await V(6 + 1);
            }
            catch (StepException e) when (e.Step % 2 == 0)
            {
                log += "c6";
                v6 += await V(e.Step);
            }
            finally
            {
                v7 += await V(6 % 5);
            }
            try
            {
                v7 = v7 * 3 + await V(7) + v12;
                if (failAt == 7) throw new StepException(7);
                v12 ^= await V(7 + 1);
            }
            finally
            {
                v8 += await V(7 % 5);
            }
            try
            {
                v8 = v8 * 3 + await V(8) + v19;
                if (failAt == 8) throw new StepException(8);
                v19 ^= await V(8 + 1);
            }
            finally
            {
                v9 += await V(8 % 5);
            }
            try
            {
                v9 = v9 * 3 + await V(9) + v26;
                if (failAt == 9) throw new StepException(9);
                v26 ^= await V(9 + 1);
            }
            catch (StepException e) when (e.Step % 2 == 0)
            {
                log += "c9";
                v9 += await V(e.Step);
            }
            finally
            {
                v10 += await V(9 % 5);
            }
            try
            {
                v10 = v10 * 3 + await V(10) + v33;
                if (failAt == 10) throw new StepException(10);
                v33 ^= await V(10 + 1);
            }
            finally
            {
                v11 += await V(10 % 5);
            }
            try
            {
                v11 = v11 * 3 + await V(11) + v0;
                if (failAt == 11) throw new StepException(11);
                v0 ^= await V(11 + 1);
            }
            finally
            {
                v12 += await V(11 % 5);
            }
            try
            {
                v12 = v12 * 3 + await V(12) + v7;
                if (failAt == 12) throw new StepException(12);
                v7 ^= await V(12 + 1);
            }
            catch (StepException e) when (e.Step % 2 == 0)
            {
                log += "c12";
                v12 += await V(e.Step);
            }
            finally
            {
                v13 += await V(12 % 5);
            }
            try
            {
                v13 = v13 * 3 + await V(13) + v14;
                if (failAt == 13) throw new StepException(13);
                v14 ^= await V(13 + 1);
            }
            finally
            {
                v14 += await V(13 % 5);
            }
            try
            {
                v14 = v14 * 3 + await V(14) + v21;
                if (failAt == 14) throw new StepException(14);
                v21 ^= await V(14 + 1);
            }
            finally
            {
                v15 += await V(14 % 5);
            }
            try
            {
                v15 = v15 * 3 + await V(15) + v28;
                if (failAt == 15) throw new StepException(15);
                v28 ^= await V(15 + 1);
            }
            catch (StepException e) when (e.Step % 2 == 0)
            {
                log += "c15";
                v15 += await V(e.Step);
            }
            finally
            {
                v16 += await V(15 % 5);
            }
            try
            {
                v16 = v16 * 3 + await V(16) + v35;
                if (failAt == 16) throw new StepException(16);
                v35 ^= await V(16 + 1);
            }
            finally
            {
                v17 += await V(16 % 5);
            }
            try
            {
                v17 = v17 * 3 + await V(17) + v2;
                if (failAt == 17) throw new StepException(17);
                v2 ^= await V(17 + 1);
            }
            finally
            {
                v18 += await V(17 % 5);
            }
            try
            {
                v18 = v18 * 3 + await V(18) + v9;
                if (failAt == 18) throw new StepException(18);
                v9 ^= await V(18 + 1);
            }
            catch (StepException e) when (e.Step % 2 == 0)
            {
                log += "c18";
                v18 += await V(e.Step);
            }
            finally
            {
                v19 += await V(18 % 5);
            }
            try
            {
                v19 = v19 * 3 + await V(19) + v16;
                if (failAt == 19) throw new StepException(19);
                v16 ^= await V(19 + 1);
            }
            finally
            {
                v20 += await V(19 % 5);
            }
            try
            {
                v20 = v20 * 3 + await V(20) + v23;
                if (failAt == 20) throw new StepException(20);
                v23 ^= await V(20 + 1);
            }
            finally
            {
                v21 += await V(20 % 5);
            }
            try
            {
                v21 = v21 * 3 + await V(21) + v30;
                if (failAt == 21) throw new StepException(21);
                v30 ^= await V(21 + 1);
            }
            catch (StepException e) when (e.Step % 2 == 0)
            {
                log += "c21";
                v21 += await V(e.Step);
            }
            finally
            {
                v22 += await V(21 % 5);
            }
            try
            {
                v22 = v22 * 3 + await V(22) + v37;
                if (failAt == 22) throw new StepException(22);
                v37 ^= await V(22 + 1);
            }
            finally
            {
                v23 += await V(22 % 5);
            }
            try
            {
                v23 = v23 * 3 + await V(23) + v4;
                if (failAt == 23) throw new StepException(23);
                v4 ^= await V(23 + 1);
            }
            finally
            {
                v24 += await V(23 % 5);
            }
            try
            {
                v24 = v24 * 3 + await V(24) + v11;
                if (failAt == 24) throw new StepException(24);
                v11 ^= await V(24 + 1);
            }
            catch (StepException e) when (e.Step % 2 == 0)
            {
                log += "c24";
                v24 += await V(e.Step);
            }
            finally
            {
                v25 += await V(24 % 5);
            }
            try
            {
                v25 = v25 * 3 + await V(25) + v18;
                if (failAt == 25) throw new StepException(25);
                v18 ^= await V(25 + 1);
            }
            finally
            {
                v26 += await V(25 % 5);
            }
            try
            {
                v26 = v26 * 3 + await V(26) + v25;
                if (failAt == 26) throw new StepException(26);
                v25 ^= await V(26 + 1);
            }
            finally
            {
                v27 += await V(26 % 5);
            }
            try
            {
                v27 = v27 * 3 + await V(27) + v32;
                if (failAt == 27) throw new StepException(27);
                v32 ^= await V(27 + 1);
            }
            catch (StepException e) when (e.Step % 2 == 0)
            {
                log += "c27";
                v27 += await V(e.Step);
            }
            finally
            {
                v28 += await V(27 % 5);
            }
            try
            {
                v28 = v28 * 3 + await V(28) + v39;
                if (failAt == 28) throw new StepException(28);
                v39 ^= await V(28 + 1);
            }
            finally
            {
                v29 += await V(28 % 5);
            }
            try
            {
                v29 = v29 * 3 + await V(29) + v6;
                if (failAt == 29) throw new StepException(29);
                v6 ^= await V(29 + 1);
            }
            finally
            {
                v30 += await V(29 % 5);
            }
            try
            {
                v30 = v30 * 3 + await V(30) + v13;
                if (failAt == 30) throw new StepException(30);
                v13 ^= await V(30 + 1);
            }
            catch (StepException e) when (e.Step % 2 == 0)
            {
                log += "c30";
                v30 += await V(e.Step);
            }
            finally
            {
                v31 += await V(30 % 5);
            }
            try
            {
                v31 = v31 * 3 + await V(31) + v20;
                if (failAt == 31) throw new StepException(31);
                v20 ^= await V(31 + 1);
            }
            finally
            {
                v32 += await V(31 % 5);
            }
            try
            {
                v32 = v32 * 3 + await V(32) + v27;
                if (failAt == 32) throw new StepException(32);
                v27 ^= await V(32 + 1);
            }
            finally
            {
                v33 += await V(32 % 5);
            }
            try
            {
                v33 = v33 * 3 + await V(33) + v34;
                if (failAt == 33) throw new StepException(33);
                v34 ^= await V(33 + 1);
            }
            catch (StepException e) when (e.Step % 2 == 0)
            {
                log += "c33";
                v33 += await V(e.Step);
            }
            finally
            {
                v34 += await V(33 % 5);
            }
            try
            {
                v34 = v34 * 3 + await V(34) + v1;
                if (failAt == 34) throw new StepException(34);
                v1 ^= await V(34 + 1);
            }
            finally
            {
                v35 += await V(34 % 5);
            }
            try
            {
                v35 = v35 * 3 + await V(35) + v8;
                if (failAt == 35) throw new StepException(35);
                v8 ^= await V(35 + 1);
            }
            finally
            {
                v36 += await V(35 % 5);
            }
            try
            {
                v36 = v36 * 3 + await V(36) + v15;
                if (failAt == 36) throw new StepException(36);
                v15 ^= await V(36 + 1);
            }
            catch (StepException e) when (e.Step % 2 == 0)
            {
                log += "c36";
                v36 += await V(e.Step);
            }
            finally
            {
                v37 += await V(36 % 5);
            }
            try
            {
                v37 = v37 * 3 + await V(37) + v22;
                if (failAt == 37) throw new StepException(37);
                v22 ^= await V(37 + 1);
            }
            finally
            {
                v38 += await V(37 % 5);
            }
            try
            {
                v38 = v38 * 3 + await V(38) + v29;
                if (failAt == 38) throw new StepException(38);
                v29 ^= await V(38 + 1);
            }
            finally
            {
                v39 += await V(38 % 5);
            }
            try
            {
                v39 = v39 * 3 + await V(39) + v36;
                if (failAt == 39) throw new StepException(39);
                v36 ^= await V(39 + 1);
            }
            catch (StepException e) when (e.Step % 2 == 0)
            {
                log += "c39";
                v39 += await V(e.Step);
            }
            finally
            {
                v0 += await V(39 % 5);
            }
            try
            {
                v0 = v0 * 3 + await V(40) + v3;
                if (failAt == 40) throw new StepException(40);
                v3 ^= await V(40 + 1);
            }
            finally
            {
                v1 += await V(40 % 5);
            }
            try
            {
                v1 = v1 * 3 + await V(41) + v10;
                if (failAt == 41) throw new StepException(41);
                v10 ^= await V(41 + 1);
            }
            finally
            {
                v2 += await V(41 % 5);
            }
            try
            {
                v2 = v2 * 3 + await V(42) + v17;
                if (failAt == 42) throw new StepException(42);
                v17 ^= await V(42 + 1);
            }
            catch (StepException e) when (e.Step % 2 == 0)
            {
                log += "c42";
                v2 += await V(e.Step);
            }
            finally
            {
                v3 += await V(42 % 5);
            }
            try
            {
                v3 = v3 * 3 + await V(43) + v24;
                if (failAt == 43) throw new StepException(43);
                v24 ^= await V(43 + 1);
            }
            finally
            {
                v4 += await V(43 % 5);
            }
            try
            {
                v4 = v4 * 3 + await V(44) + v31;
                if (failAt == 44) throw new StepException(44);
                v31 ^= await V(44 + 1);
            }
            finally
            {
                v5 += await V(44 % 5);
            }
            try
            {
                v5 = v5 * 3 + await V(45) + v38;
                if (failAt == 45) throw new StepException(45);
                v38 ^= await V(45 + 1);
            }
            catch (StepException e) when (e.Step % 2 == 0)
            {
                log += "c45";
                v5 += await V(e.Step);
            }
            finally
            {
                v6 += await V(45 % 5);
            }
            try
            {
                v6 = v6 * 3 + await V(46) + v5;
                if (failAt == 46) throw new StepException(46);
                v5 ^= await V(46 + 1);
            }
            finally
            {
                v7 += await V(46 % 5);
            }
            try
            {
                v7 = v7 * 3 + await V(47) + v12;
                if (failAt == 47) throw new StepException(47);
                v12 ^= await V(47 + 1);
            }
            finally
            {
                v8 += await V(47 % 5);
            }
            try
            {
                v8 = v8 * 3 + await V(48) + v19;
                if (failAt == 48) throw new StepException(48);
                v19 ^= await V(48 + 1);
            }
            catch (StepException e) when (e.Step % 2 == 0)
            {
                log += "c48";
                v8 += await V(e.Step);
            }
            finally
            {
                v9 += await V(48 % 5);
            }
            try
            {
                v9 = v9 * 3 + await V(49) + v26;
                if (failAt == 49) throw new StepException(49);
                v26 ^= await V(49 + 1);
            }
            finally
            {
                v10 += await V(49 % 5);
            }
            try
            {
                v10 = v10 * 3 + await V(50) + v33;
                if (failAt == 50) throw new StepException(50);
                v33 ^= await V(50 + 1);
            }
            finally
            {
                v11 += await V(50 % 5);
            }
            try
            {
                v11 = v11 * 3 + await V(51) + v0;
                if (failAt == 51) throw new StepException(51);
                v0 ^= await V(51 + 1);
            }
            catch (StepException e) when (e.Step % 2 == 0)
            {
                log += "c51";
                v11 += await V(e.Step);
            }
            finally
            {
                v12 += await V(51 % 5);
            }
            try
            {
                v12 = v12 * 3 + await V(52) + v7;
                if (failAt == 52) throw new StepException(52);
                v7 ^= await V(52 + 1);
            }
            finally
            {
                v13 += await V(52 % 5);
            }
            try
            {
                v13 = v13 * 3 + await V(53) + v14;
                if (failAt == 53) throw new StepException(53);
                v14 ^= await V(53 + 1);
            }
            finally
            {
                v14 += await V(53 % 5);
            }
            try
            {
                v14 = v14 * 3 + await V(54) + v21;
                if (failAt == 54) throw new StepException(54);
                v21 ^= await V(54 + 1);
            }
            catch (StepException e) when (e.Step % 2 == 0)
            {
                log += "c54";
                v14 += await V(e.Step);
            }
            finally
            {
                v15 += await V(54 % 5);
            }
            try
            {
                v15 = v15 * 3 + await V(55) + v28;
                if (failAt == 55) throw new StepException(55);
                v28 ^= await V(55 + 1);
            }
            finally
            {
                v16 += await V(55 % 5);
            }
            try
            {
                v16 = v16 * 3 + await V(56) + v35;
                if (failAt == 56) throw new StepException(56);
                v35 ^= await V(56 + 1);
            }
            finally
            {
                v17 += await V(56 % 5);
            }
            try
            {
                v17 = v17 * 3 + await V(57) + v2;
                if (failAt == 57) throw new StepException(57);
                v2 ^= await V(57 + 1);
            }
            catch (StepException e) when (e.Step % 2 == 0)
            {
                log += "c57";
                v17 += await V(e.Step);
            }
            finally
            {
                v18 += await V(57 % 5);
            }
            try
            {
                v18 = v18 * 3 + await V(58) + v9;
                if (failAt == 58) throw new StepException(58);
                v9 ^= await V(58 + 1);
            }
            finally
            {
                v19 += await V(58 % 5);
            }
            try
            {
                v19 = v19 * 3 + await V(59) + v16;
                if (failAt == 59) throw new StepException(59);
                v16 ^= await V(59 + 1);
            }
            finally
            {
                v20 += await V(59 % 5);
            }
        }
        catch (StepException e)
        {
            log += "outer" + e.Step + ":" + await V(e.Step);
        }
        long h = 0;
        h = h * 31 + v0;
        h = h * 31 + v1;
        h = h * 31 + v2;
        h = h * 31 + v3;
        h = h * 31 + v4;
        h = h * 31 + v5;
        h = h * 31 + v6;
        h = h * 31 + v7;
        h = h * 31 + v8;
        h = h * 31 + v9;
        h = h * 31 + v10;
        h = h * 31 + v11;
        h = h * 31 + v12;
        h = h * 31 + v13;
        h = h * 31 + v14;
        h = h * 31 + v15;
        h = h * 31 + v16;
        h = h * 31 + v17;
        h = h * 31 + v18;
        h = h * 31 + v19;
        h = h * 31 + v20;
        h = h * 31 + v21;
        h = h * 31 + v22;
        h = h * 31 + v23;
        h = h * 31 + v24;
        h = h * 31 + v25;
        h = h * 31 + v26;
        h = h * 31 + v27;
        h = h * 31 + v28;
        h = h * 31 + v29;
        h = h * 31 + v30;
        h = h * 31 + v31;
        h = h * 31 + v32;
        h = h * 31 + v33;
        h = h * 31 + v34;
        h = h * 31 + v35;
        h = h * 31 + v36;
        h = h * 31 + v37;
        h = h * 31 + v38;
        h = h * 31 + v39;
        return log + " " + h;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            foreach (var at in new[] { -1, 0, 1, 2, 3, 30, 31, 33, 54, 57, 58, 59 })
                Console.WriteLine($"{at}: " + await Long(at));
        }
    }
}
