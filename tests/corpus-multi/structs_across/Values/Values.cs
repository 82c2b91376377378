// Structs defined in another assembly than the async code that holds them. Their type is named
// in the app's IL by TypeRef tokens (newobj's declaring type, box, unbox.any), which say nothing of
// whether a type is a value type.
namespace Values;

public readonly struct Money(long cents)
{
    public long Cents => cents;
    public Money Add(Money other) => new(cents + other.Cents);
    public override string ToString() => $"{cents / 100}.{cents % 100:00}";
}

public readonly struct Pair<TFirst, TSecond>(TFirst first, TSecond second)
{
    public TFirst First => first;
    public TSecond Second => second;
    public override string ToString() => $"({first}, {second})";
}

public struct Counter
{
    public int Count;
    public string? Last;
    public void Add(string item) { Count++; Last = item; }
}

public enum Currency { Euro, Franc }

public struct Point
{
    public int X;
    public int Y;
    public Point(int x, int y) { X = x; Y = y; }
}

public struct Holder<T>
{
    public T Value;
    public Holder(T value) { Value = value; }
}

public struct Reading
{
    public double Degrees;
    public string Place;
    public Reading(double degrees, string place) { Degrees = degrees; Place = place; }
}
