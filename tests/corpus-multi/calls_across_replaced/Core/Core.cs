// calls_across's library (see assemblies.txt: replaced by its classic build before run (c)). A rewritten library whose methods a rewritten app calls in every way C# can: static, instance,
// generic (type and method), virtual (overridden here and in the app), abstract, interface, a
// base call from an override in the app, and calls that suspend or throw on the way.
using System;
using System.Threading.Tasks;

namespace Core;

public static class Pause
{
    public static bool Suspend;
    public static async Task Maybe() { if (Suspend) await Task.Yield(); }
}

public static class Calc
{
    public static async Task<int> AddAsync(int a, int b) { await Pause.Maybe(); return a + b; }
    public static async Task LogAsync(string text) { await Pause.Maybe(); Console.WriteLine("log: " + text); }
    public static async ValueTask<T> EchoAsync<T>(T value) { await Pause.Maybe(); return value; }
    public static async Task<int> FailAsync(string why) { await Pause.Maybe(); throw new InvalidOperationException(why); }
    public static async Task<int> FibAsync(int n) => n < 2 ? n : await FibAsync(n - 1) + await FibAsync(n - 2);
}

public class Counter(int start)
{
    private int _value = start;
    public async Task<int> NextAsync() { await Pause.Maybe(); return ++_value; }
    public virtual async Task<string> NameAsync() { await Pause.Maybe(); return "counter at " + _value; }
    public virtual async Task<int> PeekAsync() { await Pause.Maybe(); return _value; }
}

public sealed class Box<T>(T value)
{
    public async Task<T> GetAsync() { await Pause.Maybe(); return value; }
    public async Task<(T, U)> PairAsync<U>(U other) { await Pause.Maybe(); return (value, other); }
}

public interface IShape
{
    Task<double> AreaAsync();
    Task<string> DescribeAsync();
}

public class Square(double side) : IShape
{
    public async Task<double> AreaAsync() { await Pause.Maybe(); return side * side; }
    public virtual async Task<string> DescribeAsync() => $"square of area {await AreaAsync()}";
}

public abstract class Animal
{
    public abstract Task<string> SpeakAsync();
    public virtual async Task<string> IntroduceAsync() => $"{GetType().Name} says {await SpeakAsync()}";
}

public class Dog : Animal
{
    public override async Task<string> SpeakAsync() { await Pause.Maybe(); return "woof"; }
}

/// <summary>Calls back into whatever the app passes: interface and virtual calls from Core into the app.</summary>
public static class Zoo
{
    public static async Task<string> ChorusAsync(Animal[] animals)
    {
        var text = "";
        foreach (var animal in animals)
            text += await animal.IntroduceAsync() + "; ";
        return text;
    }

    public static async Task<double> TotalAreaAsync(IShape[] shapes)
    {
        double total = 0;
        foreach (var shape in shapes)
            total += await shape.AreaAsync();
        return total;
    }
}
