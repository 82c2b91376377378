// One static constructor per instantiation of generic types (classes and structs, value and
// reference type arguments, so both unshared and shared generic code), first run by calls made from
// async frames that resumed after a suspension, from generic callers whose own type arguments pick
// the instantiation, from static async local functions of a type with a constructor, and through a
// generic struct's async instance method reached via an interface. Output goes to a list printed
// at the end, so which thread ran a constructor does not matter, only the order.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

static class Log
{
    private static readonly List<string> s_lines = new();
    public static void Add(string s) { lock (s_lines) s_lines.Add(s); }
    public static void Dump() { lock (s_lines) { foreach (var l in s_lines) Console.WriteLine(l); s_lines.Clear(); } }
}

class Pool<T>
{
    static readonly string s_name;
    static Pool() { s_name = typeof(T).Name; Log.Add("Pool cctor " + s_name); }
    public static async Task<string> Rent(int n)
    {
        Log.Add($"Rent<{typeof(T).Name}> {n}");
        await Program.Pause();
        return s_name + n;
    }
    public static async Task<string> RentTwice<U>(int n) => await Rent(n) + "/" + await Pool<U>.Rent(n + 1);
}

interface IProbe { Task<string> Probe(); }

struct Slot<T> : IProbe
{
    public T Value;
    static Slot() => Log.Add("Slot cctor " + typeof(T).Name);
    public async Task<string> Probe()
    {
        await Program.Pause();
        return "slot " + Value;
    }
    public static async Task<int> Size() { await Program.Pause(); return System.Runtime.CompilerServices.Unsafe.SizeOf<T>(); }
}

static class Hub
{
    public static int Hits;
    static Hub() => Log.Add("Hub cctor");
    public static async Task<string> Run(bool nested)
    {
        static async Task<string> Local(int x) { await Program.Pause(); Hits++; return "local " + x; }
        var a = await Local(1);
        if (nested) a += " " + await Pool<IProbe[]>.Rent(9);
        return a + " hits=" + Hits;
    }
}

static class Program
{
    public static bool Suspend;
    public static async Task Pause() { if (Suspend) await Task.Yield(); }

    static async Task<string> Generic<T>(int n)
    {
        await Pause();
        Log.Add("Generic resumed " + typeof(T).Name);
        return await Pool<T>.Rent(n);
    }

    static async Task<string> ViaInterface<T>(T value)
    {
        IProbe p = new Slot<T> { Value = value };
        await Pause();
        return await p.Probe() + " size=" + await Slot<T>.Size();
    }

    static async Task Main()
    {
        Suspend = true;
        Log.Add("main");
        await Task.Yield();
        Log.Add(await Generic<int>(1));
        Log.Add(await Generic<string>(2));
        Log.Add(await Generic<object>(3));
        Log.Add(await Generic<int>(4));
        Log.Add(await Pool<long>.RentTwice<Uri>(5));
        Log.Add(await Pool<Uri>.RentTwice<long>(6));
        Log.Add(await ViaInterface(7));
        Log.Add(await ViaInterface("eight"));
        Log.Add(await ViaInterface(9.5));
        Log.Add(await Hub.Run(false));
        Log.Add(await Hub.Run(true));
        await Task.Delay(1).ConfigureAwait(false);
        Log.Add(await Generic<byte>(10));
        Log.Add(await ViaInterface<Version>(new Version(1, 2)));
        Suspend = false;
        Log.Add(await Generic<short>(11));
        Log.Add(await ViaInterface('c'));
        Log.Dump();
    }
}
