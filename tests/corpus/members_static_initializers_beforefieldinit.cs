// Static field initializers with side effects and no explicit static constructor (beforefieldinit):
// .NET runs them at the first access of a static field, so what prints depends on where the first
// access happens: before or after an await in an async method, in a branch not taken, in a
// generic class per instantiation, in a struct, through a static property, or from an async local
// function and lambda. Calling a static method of such a type runs nothing.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

static class Log
{
    public static readonly List<string> Lines = new();
    public static string Add(string s) { Console.WriteLine("  init " + s); return s; }
}

static class Settings
{
    public static readonly string Name = Log.Add("Settings.Name");
    public static readonly int Port = Name.Length;
    public static async Task<string> Describe()
    {
        Console.WriteLine("Describe enter");
        await Program.Pause();
        Console.WriteLine("Describe after pause");
        return Name + ":" + Port;
    }
    public static async Task<int> Nothing(int x)
    {
        Console.WriteLine("Nothing enter");
        await Program.Pause();
        return x;
    }
}

static class Cache<T>
{
    public static readonly string Key = Log.Add("Cache<" + typeof(T).Name + ">");
    public static async Task<string> Get(bool touch)
    {
        Console.WriteLine("Get enter " + typeof(T).Name);
        await Program.Pause();
        return touch ? Key : "untouched";
    }
}

struct Money
{
    public static readonly string Currency = Log.Add("Money.Currency");
    public decimal Amount;
    public async Task<string> Format()
    {
        Console.WriteLine("Format enter");
        await Program.Pause();
        return Amount + " " + Currency;
    }
}

sealed class Lazyish
{
    static readonly string s_value = Log.Add("Lazyish.s_value");
    public static string Value => s_value;
    public async Task<string> Read(bool touch)
    {
        Console.WriteLine("Read enter");
        if (touch)
        {
            await Program.Pause();
            return Value;
        }
        await Program.Pause();
        return "skipped";
    }
}

static class Program
{
    public static bool Suspend;
    public static async Task Pause() { if (Suspend) await Task.Yield(); }

    static async Task Run(string label)
    {
        Console.WriteLine($"-- {label} suspend={Suspend}");
        Console.WriteLine(await Settings.Nothing(1));
        Console.WriteLine(await Settings.Describe());
        Console.WriteLine(await Cache<int>.Get(false));
        Console.WriteLine(await Cache<int>.Get(true));
        Console.WriteLine(await Cache<string>.Get(true));
        Console.WriteLine(await new Money { Amount = 2 }.Format());
        var l = new Lazyish();
        Console.WriteLine(await l.Read(false));
        Console.WriteLine(await l.Read(true));
        async Task<string> Local() { await Pause(); return Cache<double>.Key; }
        Console.WriteLine("before local");
        Console.WriteLine(await Local());
        Func<Task<string>> lambda = async () => { Console.WriteLine("lambda enter"); await Pause(); return Cache<byte>.Key; };
        Console.WriteLine("before lambda");
        Console.WriteLine(await lambda());
    }

    static async Task Main()
    {
        // Only one pass touches the types for the first time; pick the mode from the environment-free flag.
        Suspend = true;
        await Run("first");
        Suspend = false;
        await Run("second");
    }
}
