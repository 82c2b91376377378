using System.Reflection;
using System.Runtime.CompilerServices;
using System.Runtime.Loader;
using Async2.Tests.Corpus;
using Xunit;

namespace Async2.Tests.Cli;

/// <summary>
/// What reflection shows of a rewritten assembly (Fixtures/Reflection.cs): ordinary lookups list
/// the same members and nested types as before rewriting; everything the rewriter adds is
/// [CompilerGenerated], non-public, and the added types have names C# cannot spell; and the
/// original methods still work through MethodInfo.Invoke and delegates, returning tasks with the
/// right results on the synchronous and the suspending path.
/// "Before rewriting" is the classic build of the same source: the stock runtime refuses to load
/// the types of the runtime-async build, and both compilations declare the same members (their
/// compiler-generated nested types differ, and are private).
/// </summary>
public sealed class ReflectionTests
{
    private static readonly ProgramBuild s_build =
        ProgramBuilder.Build("Reflection", [Path.Combine(TestEnvironment.FixturesFolder, "Reflection.cs")]);

    private const BindingFlags Everything =
        BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.Static | BindingFlags.DeclaredOnly;

    [Fact]
    public void Default_lookups_and_interface_maps_list_what_they_listed_before_rewriting()
    {
        var before = Load(s_build.Classic);
        var after = Load(s_build.Rewritten);
        foreach (var type in SourceDeclaredTypes(before))
        {
            var rewritten = after.GetType(type.FullName!, throwOnError: true)!;
            Assert.Equal(Describe(type.GetMethods()), Describe(rewritten.GetMethods()));
            Assert.Equal(Describe(type.GetMembers()), Describe(rewritten.GetMembers()));
            Assert.Equal(type.GetNestedTypes().Select(t => t.FullName).Order(), rewritten.GetNestedTypes().Select(t => t.FullName).Order());
            if (type.IsInterface || type.ContainsGenericParameters)
                continue;
            foreach (var implemented in type.GetInterfaces())
            {
                // Interface entries (virtual methods the rewriter adds to interfaces, see VirtualEntries)
                // are interface slots, so the map lists them too; everything else maps as before.
                var map = type.GetInterfaceMap(implemented);
                var rewrittenMap = rewritten.GetInterfaceMap(rewritten.GetInterfaces().Single(i => i.FullName == implemented.FullName));
                var slots = rewrittenMap.InterfaceMethods.Zip(rewrittenMap.TargetMethods).ToList();
                var added = slots.Where(slot => slot.First.IsDefined(typeof(CompilerGeneratedAttribute))).ToList();
                Assert.All(added, slot => Assert.True(slot.First.Name.Contains('<') && slot.Second.IsDefined(typeof(CompilerGeneratedAttribute))));
                var kept = slots.Except(added).ToList();
                Assert.Equal(Describe(map.InterfaceMethods), Describe(kept.Select(slot => slot.First)));
                Assert.Equal(Describe(map.TargetMethods), Describe(kept.Select(slot => slot.Second)));
            }
        }
    }

    [Fact]
    public void Everything_added_is_compiler_generated_and_added_types_are_unspeakable()
    {
        var before = Load(s_build.Classic);
        var after = Load(s_build.Rewritten);
        var typesBefore = before.GetTypes().Select(t => t.FullName).ToHashSet();
        var added = after.GetTypes().Where(t => !typesBefore.Contains(t.FullName)).ToList();
        Assert.NotEmpty(added);
        Assert.All(added, type =>
        {
            Assert.True(type.IsDefined(typeof(CompilerGeneratedAttribute)), $"{type.FullName} is not [CompilerGenerated]");
            // Internal, since every caller in the module calls the variants declared on it; the
            // module-level plumbing (the cross-assembly contract marker, call bridges) is top-level and internal.
            Assert.True(type.IsNested ? type.IsNestedPrivate || type.IsNestedAssembly : type.IsNotPublic, $"{type.FullName} is visible outside its assembly");
            Assert.Contains('<', type.Name);
        });

        int addedMethods = 0;
        foreach (var type in SourceDeclaredTypes(before))
        {
            var methodsBefore = type.GetMethods(Everything).Select(m => m.ToString()).ToHashSet();
            foreach (var method in after.GetType(type.FullName!, throwOnError: true)!.GetMethods(Everything))
            {
                if (methodsBefore.Contains(method.ToString()!))
                    continue;
                addedMethods++;
                Assert.True(method.IsDefined(typeof(CompilerGeneratedAttribute)), $"{type.FullName}::{method} was added without [CompilerGenerated]");
                Assert.False(method.IsPublic || method.IsFamily || method.IsFamilyOrAssembly, $"{type.FullName}::{method} was added with outside visibility");
            }
        }
        Assert.True(addedMethods > 0, "the rewriter added no variant methods to compare");
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Invoke_and_delegates_on_original_methods_return_tasks_with_their_results(bool suspend)
    {
        var assembly = Load(s_build.Rewritten);
        assembly.GetType("Library")!.GetField("Suspend")!.SetValue(null, suspend);
        var library = assembly.GetType("Library")!;
        var instance = Activator.CreateInstance(library)!;

        Assert.Equal(5, await (Task<int>)library.GetMethod("Add")!.Invoke(instance, [2, 3])!);
        Assert.Equal("abab", await (Task<string>)library.GetMethod("Echo")!.Invoke(null, ["ab"])!);
        Assert.Equal(42L, await (ValueTask<long>)library.GetMethod("Twice")!.Invoke(instance, [21L])!);
        await (Task)library.GetMethod("Touch")!.Invoke(instance, null)!;
        Assert.Equal(2, await (Task<int>)library.GetMethod("Calls")!.Invoke(instance, null)!);
        Assert.Equal("x", await (Task<string>)library.GetMethod("Identity")!.MakeGenericMethod(typeof(string)).Invoke(instance, ["x"])!);
        Assert.Equal(7.5, await (Task<double>)library.GetMethod("Identity")!.MakeGenericMethod(typeof(double)).Invoke(instance, [7.5])!);
        Assert.Equal(2, await (Task<int>)library.GetMethod("Protected", Everything, Type.EmptyTypes)!.Invoke(instance, null)!);

        var derived = Activator.CreateInstance(assembly.GetType("Derived")!)!;
        Assert.Equal(100, await (Task<int>)library.GetMethod("Calls")!.Invoke(derived, null)!); // virtual: reaches the override

        var add = library.GetMethod("Add")!.CreateDelegate<Func<int, int, Task<int>>>(instance);
        Assert.Equal(9, await add(4, 5));
        var echo = library.GetMethod("Echo")!.CreateDelegate<Func<string, Task<string>>>();
        Assert.Equal("zz", await echo("z"));
        var derivedCalls = library.GetMethod("Calls")!.CreateDelegate<Func<Task<int>>>(derived); // bound through the virtual slot
        Assert.Equal(100, await derivedCalls());
        var incrementer = (Func<int, Task<int>>)library.GetMethod("Incrementer")!.Invoke(instance, [10])!;
        Assert.Equal(11, await incrementer(1));

        var counter = Activator.CreateInstance(assembly.GetType("Counter")!)!;
        assembly.GetType("Counter")!.GetField("Start")!.SetValue(counter, 41);
        Assert.Equal(42, await (Task<int>)assembly.GetType("Counter")!.GetMethod("Next")!.Invoke(counter, null)!);

        var greeter = Activator.CreateInstance(assembly.GetType("Greeter")!)!;
        Assert.Equal("hello ann", await (Task<string>)assembly.GetType("IGreeter")!.GetMethod("Greet")!.Invoke(greeter, ["ann"])!);

        var store = Activator.CreateInstance(assembly.GetType("Store")!)!;
        var storeInterface = assembly.GetType("IStore")!;
        Assert.Equal(30, await (Task<int>)storeInterface.GetMethod("Load")!.Invoke(store, [3])!);
        await (Task)storeInterface.GetMethod("Save")!.Invoke(store, [4])!; // the explicit implementation
        Assert.Equal(4, store.GetType().GetField("Saved")!.GetValue(store));

        var box = Activator.CreateInstance(assembly.GetType("Box`1")!.MakeGenericType(typeof(int)))!;
        var pair = await (Task<int[]>)box.GetType().GetMethod("Pair")!.Invoke(box, [1, 2])!;
        Assert.Equal(new[] { 1, 2 }, pair);
    }

    /// <summary>The types the source declares; the classic build adds its own state machines, which the rewritten build does not have.</summary>
    private static IEnumerable<Type> SourceDeclaredTypes(Assembly assembly) =>
        assembly.GetTypes().Where(t => !t.Name.Contains('<'));

    private static IEnumerable<string> Describe(IEnumerable<MemberInfo> members) =>
        members.Select(m => $"{m.MemberType} {m.DeclaringType?.Name}::{m}").Order(StringComparer.Ordinal);

    /// <summary>Loads an assembly into its own context (the builds share a name); Async2.Runtime comes from the test's own.</summary>
    private static Assembly Load(string path) =>
        new AssemblyLoadContext($"reflection-{Guid.NewGuid():N}").LoadFromAssemblyPath(path);
}
