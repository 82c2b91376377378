// exceptions thrown after a suspension unwinding through many frames: frames without any try (skipped),
// frames with try/finally only (finally runs once, then the exception continues), a frame whose
// finally throws a new exception replacing the first, and a catch several frames up; also an
// exception thrown synchronously before any suspension through the same frames.
using System;
using System.Threading.Tasks;

static class Program
{
    static bool Suspend;
    static string log = "";

    static async Task<int> Leaf(int mode)
    {
        if (Suspend) await Task.Delay(1);
        if (mode == 1) throw new InvalidOperationException("leaf failed");
        if (mode == 2) throw new ArgumentNullException("param", "leaf null");
        return 1;
    }

    static async Task<int> NoTry(int mode) => 1 + await Leaf(mode);

    static async Task<int> WithFinally(int mode)
    {
        try
        {
            return 10 + await NoTry(mode);
        }
        finally
        {
            log += "F";
        }
    }

    static async Task<int> NoTry2(int mode)
    {
        int x = await WithFinally(mode);
        log += "x";
        return x * 2;
    }

    static async Task<int> ThrowingFinally(int mode)
    {
        try
        {
            return await NoTry2(mode);
        }
        finally
        {
            log += "T";
            if (mode == 2) throw new FormatException("finally replaced it");
        }
    }

    static async Task<int> CatchSome(int mode)
    {
        try
        {
            return await ThrowingFinally(mode);
        }
        catch (InvalidOperationException e)
        {
            log += "C";
            return -e.Message.Length;
        }
    }

    static async Task<string> Top(int mode)
    {
        try
        {
            return "value " + await CatchSome(mode);
        }
        catch (Exception e)
        {
            return e.GetType().Name + ": " + e.Message;
        }
    }

    static async Task<int> SyncThrow(bool before)
    {
        if (before) throw new NotImplementedException("sync before await");
        await Leaf(0);
        return 0;
    }

    static async Task<string> SyncTop(bool before)
    {
        try
        {
            try
            {
                return "ok " + await SyncThrow(before);
            }
            finally
            {
                log += "S";
            }
        }
        catch (NotImplementedException e)
        {
            return e.GetType().Name + ": " + e.Message;
        }
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            foreach (var mode in new[] { 0, 1, 2 })
            {
                log = "";
                Console.WriteLine($"Top({mode}) = {await Top(mode)} log={log}");
            }
            foreach (var before in new[] { true, false })
            {
                log = "";
                Console.WriteLine($"SyncTop({before}) = {await SyncTop(before)} log={log}");
            }
        }
    }
}
