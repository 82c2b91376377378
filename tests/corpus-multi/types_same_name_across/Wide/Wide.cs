namespace Shared
{
    public struct Thing
    {
        public long A, B, C;
        public Thing(long a) { A = a; B = a * 2; C = a * 3; }
        public override string ToString() => $"Wide.Thing({A},{B},{C})";
    }
}

public static class WideThings
{
    public static Shared.Thing Make(long n) => new(n);
}
