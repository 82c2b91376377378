// compound assignments whose target is computed before the await: instance and static fields,
// properties, array elements (with index side effects), List<T> indexers, fields of struct array
// elements and of static struct fields, and fields of a struct local; increments around awaits.
using System;
using System.Collections.Generic;
using System.Threading.Tasks;

struct Cell
{
    public int X;
    public long Y;
}

sealed class Box
{
    public int Field;
    public decimal Money;
    public int Prop { get; set; }
    public Cell Cell;
    public int[] Items = { 1, 2, 3 };
}

static class Program
{
    static bool Suspend;
    static int StaticField = 5;
    static Cell StaticCell;
    static string log = "";

    static async Task<int> I(int v)
    {
        if (Suspend) await Task.Yield();
        return v;
    }

    static int Index(int i)
    {
        log += "i" + i;
        return i;
    }

    static Box Target(Box b)
    {
        log += "T";
        return b;
    }

    static async Task<string> Fields()
    {
        var b = new Box();
        b.Field += await I(3);
        Target(b).Field *= await I(4);
        b.Money += await I(2) * 0.5m;
        b.Prop += await I(7);
        Target(b).Prop -= await I(1);
        b.Cell.X += await I(9);
        b.Cell.Y -= await I(2);
        StaticField += await I(10);
        StaticCell.X += await I(11);
        StaticCell.Y = StaticCell.Y * 2 + await I(3);
        return $"{b.Field} {b.Money} {b.Prop} {b.Cell.X} {b.Cell.Y} {StaticField} {StaticCell.X} {StaticCell.Y}";
    }

    static async Task<string> Elements()
    {
        var a = new[] { 10, 20, 30 };
        int k = 0;
        a[Index(1)] += await I(5);
        a[k++] -= await I(1);
        a[k] = a[k] * await I(2);
        var cells = new Cell[2];
        cells[Index(0)].X += await I(4);
        cells[1].Y = await I(6) + cells[1].Y;
        var list = new List<int> { 1, 2 };
        list[Index(1)] += await I(40);
        var b = new Box();
        b.Items[Index(2)] *= await I(7);
        Cell local = default;
        local.X += await I(8);
        local.Y++;
        local.Y += await I(1);
        long[,] grid = new long[2, 2];
        grid[1, Index(0)] += await I(9);
        return $"{string.Join(",", a)} {cells[0].X} {cells[1].Y} {string.Join(",", list)} {string.Join(",", b.Items)} {local.X} {local.Y} {grid[1, 0]} k={k}";
    }

    static async Task<string> Increments()
    {
        int x = 0;
        int[] arr = { 0, 0 };
        int y = x++ + await I(10) + ++x;
        arr[x - 2]++;
        arr[await I(1)]++;
        StaticField = 0;
        int z = StaticField++ * 100 + await I(5) + StaticField;
        return $"{x} {y} {string.Join(",", arr)} {z} {StaticField}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            StaticField = 5;
            StaticCell = default;
            log = "";
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Fields());
            Console.WriteLine(await Elements());
            Console.WriteLine(await Increments());
            Console.WriteLine("log=" + log);
        }
    }
}
