// Async methods whose parameters and type parameters carry [DynamicallyAccessedMembers], called
// from another rewritten assembly: the bridges there copy the annotations, imported into the
// caller's module (the rewrite of the caller crashed on a generic one).
using System;
using System.Diagnostics.CodeAnalysis;
using System.Linq;
using System.Reflection;
using System.Threading.Tasks;

namespace Annotated;

public static class Reflect
{
    public static bool Suspend;

    public static async Task<string> PropertiesOf<[DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicProperties)] T>()
    {
        if (Suspend) await Task.Yield();
        return string.Join(",", typeof(T).GetProperties().Select(p => p.Name).Order());
    }

    public static async Task<string> MethodsOf([DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicMethods)] Type type)
    {
        if (Suspend) await Task.Yield();
        return string.Join(",", type.GetMethods(BindingFlags.Public | BindingFlags.Instance | BindingFlags.DeclaredOnly).Select(m => m.Name).Order());
    }
}

public interface IDescriber
{
    Task<string> Describe([DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicMethods)] Type type);
}

public class Describer : IDescriber
{
    public virtual async Task<string> Describe([DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicMethods)] Type type) =>
        "methods: " + await Reflect.MethodsOf(type);
}

public class Box<[DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicProperties)] T>
{
    public async Task<string> Shape() => await Reflect.PropertiesOf<T>();
}
