// Awaits inside 12 levels of nested try/catch/finally (awaits in try, catch and finally at every level,
// exceptions thrown at a chosen depth, filters, rethrow), and 10 levels of nested loops with an await in the
// innermost body plus break/continue/goto out of several levels.
using System;
using System.Threading.Tasks;

sealed class LevelException(int level) : Exception("L" + level) { public int Level = level; }

static class Program
{
    static bool Suspend;

    static async Task<int> V(int v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static async Task<string> Nested(int throwAt, int catchAt)
    {
        var log = new System.Text.StringBuilder();
        int acc = 0;
        try
        {
            acc += await V(0);
            if (throwAt == 0) throw new LevelException(0);
            try
            {
                acc += await V(1);
                if (throwAt == 1) throw new LevelException(1);
                try
                {
                    acc += await V(2);
                    if (throwAt == 2) throw new LevelException(2);
                    try
                    {
                        acc += await V(3);
                        if (throwAt == 3) throw new LevelException(3);
                        try
                        {
                            acc += await V(4);
                            if (throwAt == 4) throw new LevelException(4);
                            try
                            {
                                acc += await V(5);
                                if (throwAt == 5) throw new LevelException(5);
                                try
                                {
                                    acc += await V(6);
                                    if (throwAt == 6) throw new LevelException(6);
                                    try
                                    {
                                        acc += await V(7);
                                        if (throwAt == 7) throw new LevelException(7);
                                        try
                                        {
                                            acc += await V(8);
                                            if (throwAt == 8) throw new LevelException(8);
                                            try
                                            {
                                                acc += await V(9);
                                                if (throwAt == 9) throw new LevelException(9);
                                                try
                                                {
                                                    acc += await V(10);
                                                    if (throwAt == 10) throw new LevelException(10);
                                                    try
                                                    {
                                                        acc += await V(11);
                                                        if (throwAt == 11) throw new LevelException(11);
                                                        log.Append("core;");
                                                    }
                                                    catch (LevelException e) when (e.Level >= 11 && catchAt == 11)
                                                    {
                                                        log.Append("c11:" + e.Level + ";");
                                                        acc += await V(100 + 11);
                                                    }
                                                    finally
                                                    {
                                                        if (11 % 2 == 0) acc += await V(1000 + 11); else acc -= 1;
                                                        log.Append("f11;");
                                                    }
                                                }
                                                catch (LevelException e) when (e.Level >= 10 && catchAt == 10)
                                                {
                                                    log.Append("c10:" + e.Level + ";");
                                                    acc += await V(100 + 10);
                                                }
                                                finally
                                                {
                                                    if (10 % 2 == 0) acc += await V(1000 + 10); else acc -= 1;
                                                    log.Append("f10;");
                                                }
                                            }
                                            catch (LevelException e) when (e.Level >= 9 && catchAt == 9)
                                            {
                                                log.Append("c9:" + e.Level + ";");
                                                acc += await V(100 + 9);
                                                if (e.Level == throwAt && 9 % 2 == 1) throw;
                                            }
                                            finally
                                            {
                                                if (9 % 2 == 0) acc += await V(1000 + 9); else acc -= 1;
                                                log.Append("f9;");
                                            }
                                        }
                                        catch (LevelException e) when (e.Level >= 8 && catchAt == 8)
                                        {
                                            log.Append("c8:" + e.Level + ";");
                                            acc += await V(100 + 8);
                                        }
                                        finally
                                        {
                                            if (8 % 2 == 0) acc += await V(1000 + 8); else acc -= 1;
                                            log.Append("f8;");
                                        }
                                    }
                                    catch (LevelException e) when (e.Level >= 7 && catchAt == 7)
                                    {
                                        log.Append("c7:" + e.Level + ";");
                                        acc += await V(100 + 7);
                                    }
                                    finally
                                    {
                                        if (7 % 2 == 0) acc += await V(1000 + 7); else acc -= 1;
                                        log.Append("f7;");
                                    }
                                }
                                catch (LevelException e) when (e.Level >= 6 && catchAt == 6)
                                {
                                    log.Append("c6:" + e.Level + ";");
                                    acc += await V(100 + 6);
                                    if (e.Level == throwAt && 6 % 2 == 1) throw;
                                }
                                finally
                                {
                                    if (6 % 2 == 0) acc += await V(1000 + 6); else acc -= 1;
                                    log.Append("f6;");
                                }
                            }
                            catch (LevelException e) when (e.Level >= 5 && catchAt == 5)
                            {
                                log.Append("c5:" + e.Level + ";");
                                acc += await V(100 + 5);
                            }
                            finally
                            {
                                if (5 % 2 == 0) acc += await V(1000 + 5); else acc -= 1;
                                log.Append("f5;");
                            }
                        }
                        catch (LevelException e) when (e.Level >= 4 && catchAt == 4)
                        {
                            log.Append("c4:" + e.Level + ";");
                            acc += await V(100 + 4);
                        }
                        finally
                        {
                            if (4 % 2 == 0) acc += await V(1000 + 4); else acc -= 1;
                            log.Append("f4;");
                        }
                    }
                    catch (LevelException e) when (e.Level >= 3 && catchAt == 3)
                    {
                        log.Append("c3:" + e.Level + ";");
                        acc += await V(100 + 3);
                        if (e.Level == throwAt && 3 % 2 == 1) throw;
                    }
                    finally
                    {
                        if (3 % 2 == 0) acc += await V(1000 + 3); else acc -= 1;
                        log.Append("f3;");
                    }
                }
                catch (LevelException e) when (e.Level >= 2 && catchAt == 2)
                {
                    log.Append("c2:" + e.Level + ";");
                    acc += await V(100 + 2);
                }
                finally
                {
                    if (2 % 2 == 0) acc += await V(1000 + 2); else acc -= 1;
                    log.Append("f2;");
                }
            }
            catch (LevelException e) when (e.Level >= 1 && catchAt == 1)
            {
                log.Append("c1:" + e.Level + ";");
                acc += await V(100 + 1);
            }
            finally
            {
                if (1 % 2 == 0) acc += await V(1000 + 1); else acc -= 1;
                log.Append("f1;");
            }
        }
        catch (LevelException e) when (e.Level >= 0 && catchAt == 0)
        {
            log.Append("c0:" + e.Level + ";");
            acc += await V(100 + 0);
            if (e.Level == throwAt && 0 % 2 == 1) throw;
        }
        finally
        {
            if (0 % 2 == 0) acc += await V(1000 + 0); else acc -= 1;
            log.Append("f0;");
        }
        return log + " " + acc;
    }

    static async Task<string> Safe(int t, int c)
    {
        try { return await Nested(t, c); }
        catch (LevelException e) { return "escaped " + e.Level; }
    }

    static async Task<long> Loops()
    {
        long acc = 0; int count = 0;
        for (int a = 0; a < 2; a++)
        {
            for (int b = 0; b < 2; b++)
            {
                for (int c = 0; c < 2; c++)
                {
                    for (int d = 0; d < 2; d++)
                    {
                        for (int e = 0; e < 2; e++)
                        {
                            if (c == 1 && d == 1) continue;
                            for (int f = 0; f < 2; f++)
                            {
                                for (int g = 0; g < 2; g++)
                                {
                                    if (a == 1 && b == 1 && e == 0) break;
                                    for (int h = 0; h < 2; h++)
                                    {
                                        for (int i = 0; i < 2; i++)
                                        {
                                            for (int j = 0; j < 2; j++)
                                            {
                                                acc = acc * 3 + await V(a + b + c + d + e + f + g + h + i + j) % 1000003;
                                                count++;
                                                if (count == 700) goto out1;
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    out1:
        return acc * 10000 + count;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Safe(-1, -1));
            foreach (var (t, c) in new[] { (11, 11), (11, 0), (5, 3), (5, 5), (0, 0), (9, 3), (3, 9), (6, 6), (6, -1), (9, 0) })
                Console.WriteLine($"{t},{c}: " + await Safe(t, c));
            Console.WriteLine(await Loops());
        }
    }
}
