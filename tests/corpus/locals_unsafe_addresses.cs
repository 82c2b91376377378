// Addresses of locals that live across awaits: &x of an async method's local in an unsafe block
// (the local itself is hoisted by classic async), structs with fixed-size buffers kept as locals
// across awaits and written through the buffer before and after, __makeref/TypedReference between
// awaits, Unsafe.As / Unsafe.Add / Unsafe.AsRef over locals and array elements, MemoryMarshal casts
// over stackalloc'd and array spans between awaits, and a generic method doing the same with an
// unmanaged T; each run without and with real suspensions.
using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading.Tasks;

unsafe struct Packet
{
    public fixed byte Bytes[8];
    public fixed int Words[3];
    public int Length;

    public int Sum()
    {
        int s = 0;
        for (int i = 0; i < Length; i++)
            s += Bytes[i];
        return s + Words[0] + Words[1] + Words[2];
    }
}

struct Vec
{
    public int X, Y, Z;
    public override string ToString() => $"({X},{Y},{Z})";
}

[StructLayout(LayoutKind.Sequential)]
struct Rgba
{
    public byte R, G, B, A;
}

static class Program
{
    static bool Suspend;

    static async Task Pause()
    {
        if (Suspend)
            await Task.Yield();
    }

    static async Task<int> AddressOfLocal(int seed)
    {
        int x = seed;
        long wide = seed * 1000L;
        unsafe
        {
            int* p = &x;
            *p += 1;
            long* w = &wide;
            *w += *p;
        }
        await Pause();
        unsafe
        {
            int* p = &x;
            p[0] *= 2;
            byte* low = (byte*)&wide;
            low[0] ^= 0xFF;
        }
        await Pause();
        return x + (int)(wide % 100000);
    }

    static async Task<string> FixedBufferLocal()
    {
        Packet packet = default;
        unsafe
        {
            for (int i = 0; i < 5; i++)
                packet.Bytes[i] = (byte)(i * 3);
            packet.Words[0] = 100;
            packet.Length = 5;
        }
        await Pause();
        int mid = packet.Sum();
        unsafe
        {
            packet.Words[2] = mid;
            packet.Bytes[7] = 0xAB;
        }
        await Pause();
        Packet copy = packet;
        unsafe
        {
            copy.Words[1] = -1;
            return $"{packet.Sum()} {copy.Sum()} {packet.Bytes[7]:X2} {copy.Words[2]}";
        }
    }

    static async Task<string> TypedReferences(Vec v)
    {
        int n = 3;
        string before;
        {
            TypedReference tr = __makeref(n);
            __refvalue(tr, int) += 4;
            before = __reftype(tr).Name;
            TypedReference tv = __makeref(v);
            __refvalue(tv, Vec).Y = 9;
        }
        await Pause();
        {
            TypedReference tr = __makeref(n);
            __refvalue(tr, int) *= 10;
            var field = typeof(Vec).GetField("Z")!;
            TypedReference tv = __makeref(v);
            field.SetValueDirect(tv, n);
        }
        await Pause();
        return $"{before} {n} {v}";
    }

    static async Task<string> UnsafeHelpers(int[] data)
    {
        Vec v = new Vec { X = 1, Y = 2, Z = 3 };
        ref int first = ref Unsafe.As<Vec, int>(ref v);
        first = 10;
        Unsafe.Add(ref first, 2) = 30;
        await Pause();
        ref int element = ref MemoryMarshal.GetArrayDataReference(data);
        int third = Unsafe.Add(ref element, 2);
        Unsafe.Add(ref element, 1) += v.Z;
        await Pause();
        uint bits = Unsafe.As<float, uint>(ref Unsafe.AsRef(in One));
        long pair = Unsafe.ReadUnaligned<long>(ref Unsafe.As<int, byte>(ref data[0]));
        return $"{v} {third} {data[1]} {bits:X8} {pair:X16}";
    }

    static readonly float One = 1.0f;

    static async Task<string> MemoryMarshalSpans(int count)
    {
        int checksum;
        {
            Span<int> ints = stackalloc int[count];
            for (int i = 0; i < ints.Length; i++)
                ints[i] = 0x01020304 * (i + 1);
            Span<byte> bytes = MemoryMarshal.AsBytes(ints);
            checksum = 0;
            foreach (var b in bytes)
                checksum = checksum * 7 + b;
        }
        await Pause();
        var pixels = new Rgba[3];
        {
            Span<uint> raw = MemoryMarshal.Cast<Rgba, uint>(pixels.AsSpan());
            raw[0] = 0x11223344;
            raw[2] = 0xFF000000 | (uint)checksum & 0xFFFF;
            ref Rgba px = ref MemoryMarshal.GetReference(pixels.AsSpan(1));
            px.G = 7;
        }
        await Pause();
        Span<byte> tail = stackalloc byte[4];
        MemoryMarshal.Write(tail, in pixels[0]);
        var read = MemoryMarshal.Read<int>(tail);
        return $"{checksum} {pixels[0].R:X2}{pixels[0].A:X2} {pixels[1].G} {pixels[2].A:X2} {read:X8}";
    }

    static async Task<string> GenericUnmanaged<T>(T value) where T : unmanaged
    {
        T local = value;
        int size;
        byte firstByte;
        unsafe
        {
            size = sizeof(T);
            T* p = &local;
            firstByte = *(byte*)p;
        }
        await Pause();
        Span<T> one = new Span<T>(ref local);
        var asBytes = MemoryMarshal.AsBytes(one);
        asBytes[0] = (byte)(firstByte + 1);
        await Pause();
        return $"{typeof(T).Name} size={size} first={firstByte} now={local}";
    }

    static async Task<int> AddressInLoop(int rounds)
    {
        int acc = 1;
        for (int i = 0; i < rounds; i++)
        {
            unsafe
            {
                int* p = &acc;
                *p = *p * 3 + i;
            }
            await Pause();
            acc %= 10007;
        }
        return acc;
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"--- suspend={suspend}");
            Console.WriteLine("addr " + await AddressOfLocal(7));
            Console.WriteLine("fixedbuf " + await FixedBufferLocal());
            Console.WriteLine("typedref " + await TypedReferences(new Vec { X = 1 }));
            Console.WriteLine("unsafe " + await UnsafeHelpers(new[] { 1, 2, 3, 4 }));
            Console.WriteLine("marshal " + await MemoryMarshalSpans(3));
            Console.WriteLine("generic " + await GenericUnmanaged(0x1234));
            Console.WriteLine("generic " + await GenericUnmanaged(2.5));
            Console.WriteLine("generic " + await GenericUnmanaged('a'));
            Console.WriteLine("loop " + await AddressInLoop(12));
        }
    }
}
