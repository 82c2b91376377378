// Wide's Shared.Thing is referenced too: this one, declared here, wins inside this assembly (CS0436).
#pragma warning disable CS0436
namespace Shared
{
    public struct Thing
    {
        public int X;
        public Thing(int x) { X = x; }
        public override string ToString() => $"Narrow.Thing({X})";
    }
}

public static class NarrowThings
{
    public static Shared.Thing Make(int n) => new(n);
}
