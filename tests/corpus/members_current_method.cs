// MethodBase.GetCurrentMethod() inside async methods, before and after a suspension, as logging
// code uses it. Classic async returns its state machine's MoveNext, which such code maps back to
// the method declaring the state machine (through [AsyncStateMachine]); the runtime's own runtime
// async returns the method itself. Either way the method named is the one written: static and
// instance methods, parameters, a struct, a generic type and method, an async lambda.
using System;
using System.Linq;
using System.Reflection;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

class Service
{
    public async Task<string> Handle(int id, string name)
    {
        string before = Program.Describe(MethodBase.GetCurrentMethod()!);
        await Program.Pause();
        return $"{before} / {Program.Describe(MethodBase.GetCurrentMethod()!)} ({id}, {name})";
    }
}

class Repository<T>
{
    public async Task<string> Load(T key)
    {
        await Program.Pause();
        var method = MethodBase.GetCurrentMethod()!;
        return $"{Program.Describe(method)} [{key}]";
    }
}

struct Counter
{
    public int Count;

    public async Task<string> Next()
    {
        int next = ++Count;
        await Program.Pause();
        return $"{Program.Describe(MethodBase.GetCurrentMethod()!)} -> {next}";
    }
}

static class Program
{
    public static bool Suspend;

    public static async Task Pause()
    {
        if (Suspend) await Task.Yield();
    }

    const BindingFlags Declared = BindingFlags.DeclaredOnly | BindingFlags.Instance | BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic;

    // What logging code prints: a state machine's MoveNext stands for the method that declares the machine.
    public static string Describe(MethodBase method)
    {
        if (method.Name == "MoveNext" && method.DeclaringType is { } machine && typeof(IAsyncStateMachine).IsAssignableFrom(machine))
        {
            var definition = machine.IsGenericType ? machine.GetGenericTypeDefinition() : machine;
            method = machine.DeclaringType!.GetMethods(Declared)
                .First(m => m.GetCustomAttribute<AsyncStateMachineAttribute>()?.StateMachineType == definition);
        }
        var parameters = string.Join(", ", method.GetParameters().Select(p => $"{p.ParameterType.Name} {p.Name}"));
        return $"{method.DeclaringType!.Name}.{method.Name}({parameters})";
    }

    static async Task<string> Top()
    {
        await Pause();
        return Describe(MethodBase.GetCurrentMethod()!);
    }

    static async Task<string> Generic<T>(T value)
    {
        await Pause();
        return $"{Describe(MethodBase.GetCurrentMethod()!)} <{typeof(T).Name}> {value}";
    }

    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Top());
            Console.WriteLine(await new Service().Handle(7, "seven"));
            Console.WriteLine(await new Repository<int>().Load(3));
            Console.WriteLine(await new Repository<string>().Load("k"));
            Console.WriteLine(await Generic(2.5));
            var counter = new Counter();
            Console.WriteLine(await counter.Next());
            Func<int, Task<string>> lambda = async n =>
            {
                await Pause();
                return Describe(MethodBase.GetCurrentMethod()!).Contains("b__") ? $"a lambda ({n})" : "not the lambda";
            };
            Console.WriteLine(await lambda(1));
        }
    }
}
