// Async methods reached through the runtime binder (dynamic), which looks the method up by name
// and overload at run time in the rewritten assembly: dynamic arguments choosing among overloads
// (int, long, string, object, params int[], optional parameters), a dynamic receiver calling an
// instance async method and a generic async method (type argument inferred from the dynamic
// value), dynamic named arguments, Task<dynamic> results, a dynamic local live across awaits whose
// runtime type changes, dynamic member access on an awaited ExpandoObject, and a binder exception
// (no such member, wrong arity) thrown after a suspension and caught by type.
using System;
using System.Collections.Generic;
using System.Dynamic;
using System.Threading.Tasks;
using Microsoft.CSharp.RuntimeBinder;

sealed class Service
{
    public static bool Suspend;
    readonly string _name;
    public Service(string name) => _name = name;

    static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    public async Task<string> Describe(int x) { await Pause(); return $"{_name}.int {x}"; }
    public async Task<string> Describe(long x) { await Pause(); return $"{_name}.long {x}"; }
    public async Task<string> Describe(string x) { await Pause(); return $"{_name}.string {x}"; }
    public async Task<string> Describe(object x) { await Pause(); return $"{_name}.object {x}"; }
    public async Task<string> Describe(int a, params int[] rest) { await Pause(); return $"{_name}.params {a}+{rest.Length}"; }
    public async Task<string> Optional(int a, string b = "dflt", double c = 1.5) { await Pause(); return $"{_name}.opt {a} {b} {c}"; }
    public async Task<T> Echo<T>(T value) { await Pause(); return value; }
    public async Task<string> TypeOf<T>(T value) { await Pause(); return typeof(T).Name; }
    public async Task<dynamic> Dyn(int k)
    {
        await Pause();
        return k switch { 0 => 7, 1 => "seven", _ => new List<int> { 7 } };
    }
    public async Task Fails(int code)
    {
        await Pause();
        throw new ArgumentOutOfRangeException(nameof(code), code, "bad code");
    }
}

static class Program
{
    static async Task<string> Overloads(Service s)
    {
        var results = new List<string>();
        foreach (dynamic d in new object[] { 1, 2L, "two", 2.5, (short)3 })
            results.Add(await s.Describe(d));
        dynamic one = 1, two = 2;
        results.Add(await s.Describe(one, two, 3));
        results.Add(await s.Optional(one));
        results.Add(await s.Optional(one, c: two));
        results.Add(await s.Optional(b: "named", a: two));
        return string.Join(" | ", results);
    }

    static async Task<string> DynamicReceiver(dynamic service)
    {
        string a = await service.Describe(5);
        var b = await service.Echo(42);
        var c = await service.TypeOf((dynamic)"text");
        var d = await service.TypeOf(3.0);
        dynamic e = await service.Dyn(0);
        e += await service.Dyn(0);
        return $"{a} / {b} {b.GetType().Name} / {c} / {d} / {e}";
    }

    static async Task<string> ChangingDynamicLocal(Service s)
    {
        dynamic x = 10;
        string trail = "";
        for (int k = 0; k < 3; k++)
        {
            x = await s.Dyn(k);
            trail += await s.Describe(x) + ";";
            await Task.Yield();
            trail += (x is List<int> list ? "list" + list.Count : x.ToString()) + ";";
        }
        return trail;
    }

    static async Task<string> Expando(Service s)
    {
        dynamic bag = new ExpandoObject();
        bag.Count = await s.Echo(3);
        bag.Name = await s.Echo("bag");
        bag.Count += await s.Echo(4);
        Func<int, Task<int>> twice = async n => { await Task.Yield(); return n * 2; };
        bag.Twice = twice;
        int doubled = await bag.Twice(bag.Count);
        return $"{bag.Name} {bag.Count} {doubled}";
    }

    static async Task<string> BinderErrors(Service s)
    {
        dynamic d = s;
        var results = new List<string>();
        try { await d.Missing(1); }
        catch (RuntimeBinderException e) { results.Add("missing: " + e.GetType().Name); }
        try { await d.Describe(1, 2, "x"); }
        catch (RuntimeBinderException e) { results.Add("arity: " + e.GetType().Name); }
        try { await d.Fails(await s.Echo(9)); }
        catch (ArgumentOutOfRangeException e) { results.Add($"thrown: {e.ParamName} {e.ActualValue}"); }
        return string.Join(", ", results);
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Service.Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            var s = new Service("svc");
            Console.WriteLine(await Overloads(s));
            Console.WriteLine(await DynamicReceiver(s));
            Console.WriteLine(await ChangingDynamicLocal(s));
            Console.WriteLine(await Expando(s));
            Console.WriteLine(await BinderErrors(s));
            var methods = new List<string>();
            foreach (var m in typeof(Service).GetMethods())
                if (m.DeclaringType == typeof(Service))
                    methods.Add(m.Name);
            methods.Sort(StringComparer.Ordinal);
            Console.WriteLine("public methods: " + string.Join(",", methods));
        }
    }
}
