// An assembly that lets DynamicProxyGenAssembly2 see its internals, as libraries do for Castle
// DynamicProxy (Moq, NSubstitute, FakeItEasy): a proxy class, made at run time in that assembly,
// overrides every virtual method it can see, internal ones too, and answers each call itself.
// Awaited through a base class or an interface, the calls must reach the proxy's overrides of the
// methods as written, with the answers set up for them, as in classic async.
using System;
using System.Linq;
using System.Reflection;
using System.Reflection.Emit;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

[assembly: InternalsVisibleTo("DynamicProxyGenAssembly2")]

public abstract class Component
{
    public abstract Task<int> GetAsync();
    public virtual async Task<string> NameAsync() { await Task.Yield(); return "component"; }
    public abstract ValueTask DisposeAsync();
}

public sealed class RealComponent : Component
{
    public override async Task<int> GetAsync() { await Task.Yield(); return 1; }
    public override async Task<string> NameAsync() { await Task.Yield(); return "real"; }
    public override async ValueTask DisposeAsync() => await Task.Yield();
}

public interface IService { Task<int> GetAsync(); }

public sealed class RealService : IService
{
    public async Task<int> GetAsync() { await Task.Yield(); return 1; }
}

public static class Recorder
{
    public static string Calls = "";

    /// <summary>What every proxied method answers: set-up values for the methods as written, defaults for anything else.</summary>
    public static object? Answer(string method, Type returnType)
    {
        Calls += method + ";";
        return method switch
        {
            "GetAsync" => Task.FromResult(41),
            "NameAsync" => Task.FromResult("proxy"),
            "DisposeAsync" => default(ValueTask),
            _ => returnType.IsValueType && returnType != typeof(void) ? Activator.CreateInstance(returnType) : null,
        };
    }
}

static class Program
{
    static async Task<int> UseComponent(Component c) => await c.GetAsync() + 1;
    static async Task<string> Name(Component c) => await c.NameAsync() + "!";
    static async Task DisposeOf(Component c) => await c.DisposeAsync();
    static async Task<int> UseService(IService s) => await s.GetAsync() + 1;

    static async Task Main()
    {
        Console.WriteLine($"real: {await UseComponent(new RealComponent())} {await Name(new RealComponent())} {await UseService(new RealService())}");
        var component = Proxy<Component>();
        Console.WriteLine($"proxy component: {await UseComponent(component)} {await Name(component)}");
        await DisposeOf(component);
        var service = Proxy<IService>();
        Console.WriteLine($"proxy service: {await UseService(service)}");
        Console.WriteLine($"proxied calls: {Recorder.Calls}");
    }

    /// <summary>A class deriving from (or implementing) <typeparamref name="T"/> in DynamicProxyGenAssembly2, overriding what Castle DynamicProxy would.</summary>
    static T Proxy<T>() where T : class
    {
        var assembly = AssemblyBuilder.DefineDynamicAssembly(new AssemblyName("DynamicProxyGenAssembly2"), AssemblyBuilderAccess.Run);
        var module = assembly.DefineDynamicModule("DynamicProxyGenAssembly2");
        var isInterface = typeof(T).IsInterface;
        var type = module.DefineType(typeof(T).Name + "Proxy", TypeAttributes.Public | TypeAttributes.Class | TypeAttributes.Sealed,
            isInterface ? typeof(object) : typeof(T), isInterface ? [typeof(T)] : []);
        var answer = typeof(Recorder).GetMethod(nameof(Recorder.Answer))!;
        var typeOf = typeof(Type).GetMethod(nameof(Type.GetTypeFromHandle))!;
        var methods = typeof(T).GetMethods(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic)
            .Where(m => m.IsVirtual && !m.IsFinal && m.DeclaringType != typeof(object) && !m.IsPrivate);
        foreach (var method in methods)
        {
            var parameters = method.GetParameters().Select(p => p.ParameterType).ToArray();
            var attributes = (method.Attributes & ~(MethodAttributes.Abstract | MethodAttributes.NewSlot)) | MethodAttributes.Virtual | MethodAttributes.Final;
            var proxied = type.DefineMethod(method.Name, attributes, method.ReturnType, parameters);
            var il = proxied.GetILGenerator();
            il.Emit(OpCodes.Ldstr, method.Name);
            il.Emit(OpCodes.Ldtoken, method.ReturnType == typeof(void) ? typeof(object) : method.ReturnType);
            il.Emit(OpCodes.Call, typeOf);
            il.Emit(OpCodes.Call, answer);
            if (method.ReturnType == typeof(void))
                il.Emit(OpCodes.Pop);
            else
                il.Emit(OpCodes.Unbox_Any, method.ReturnType);
            il.Emit(OpCodes.Ret);
            type.DefineMethodOverride(proxied, method);
        }
        return (T)Activator.CreateInstance(type.CreateType())!;
    }
}
