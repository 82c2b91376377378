namespace Async2.Bench;

/// <summary>The ValueTask twin of <see cref="GcImpact"/>'s frame.</summary>
internal static partial class GcImpact
{
    private static async ValueTask<long> FrameValueTask(int depth, Task<long> gate)
    {
        var payload = new Payload(depth);
        int local = depth * 3;
        long below = depth <= 1 ? await gate : await FrameValueTask(depth - 1, gate);
        return below + payload.Value + local;
    }
}
