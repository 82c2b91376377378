using Async2.Rewriter.Analysis;
using Mono.Cecil;
using Mono.Cecil.Cil;
using Async2.Tests.Corpus;
using Mono.Cecil.Rocks;
using Xunit;

namespace Async2.Tests.Analysis;

public class StackTypesTests
{
    [Fact]
    public void Arithmetic_widens_per_ECMA()
    {
        var b = new IlBuilder();
        b.Emit(Instruction.Create(OpCodes.Ldc_I4, 1));
        b.Emit(Instruction.Create(OpCodes.Ldc_I8, 2L));
        b.Emit(Instruction.Create(OpCodes.Add));
        b.Emit(Instruction.Create(OpCodes.Ldc_R8, 1.0));
        var probe = b.Emit(Instruction.Create(OpCodes.Pop));
        b.Emit(Instruction.Create(OpCodes.Pop));
        b.Emit(Instruction.Create(OpCodes.Ret));

        var stack = StackTypes.Compute(b.Method).Before(probe);

        Assert.Equal(["System.Int64", "System.Double"], stack.Select(t => t.FullName));
    }

    [Fact]
    public void A_join_of_classes_over_different_type_parameters_of_one_name_is_object()
    {
        // Base<the method's T> and Base<the class's T> have one full name, Base`1<T>: taken for the
        // same class, the join was Base<the class's T>, and the optimizing JIT then decided
        // `o is Base<T>` from the spill's type, true for a D1<long> in an Outer<int>.
        var assembly = ProgramBuilder.Compile("ShadowedTypeParameter", [Path.Combine(TestEnvironment.FixturesFolder, "ShadowedTypeParameter.cs")], runtimeAsync: true);
        using var module = ModuleDefinition.ReadModule(assembly);
        var method = module.GetType("Outer`1").Methods.Single(m => m.Name == "M");
        method.Body.SimplifyMacros();
        var await = method.Body.Instructions.Single(i => i.Operand is MethodReference { DeclaringType.Name: "AsyncHelpers" });

        var stack = StackTypes.Compute(method).Before(await);

        Assert.Equal("System.Object", stack[0].FullName);
    }

    [Fact]
    public void Unconditional_branch_carries_the_stack_to_its_target()
    {
        // x ? 1 : "two".Length, then a join point that sees one int32 whichever way it came.
        var b = new IlBuilder(null!, new IlBuilder().Types.Boolean);
        var join = Instruction.Create(OpCodes.Pop);
        var other = Instruction.Create(OpCodes.Ldstr, "two");
        b.Emit(Instruction.Create(OpCodes.Ldarg, b.Method.Parameters[0]));
        b.Emit(Instruction.Create(OpCodes.Brfalse, other));
        b.Emit(Instruction.Create(OpCodes.Ldc_I4, 1));
        b.Emit(Instruction.Create(OpCodes.Br, join));
        b.Emit(other);
        b.Emit(Instruction.Create(OpCodes.Callvirt, b.Module.ImportReference(typeof(string).GetProperty("Length")!.GetMethod)));
        b.Emit(join);
        b.Emit(Instruction.Create(OpCodes.Ret));

        var stack = StackTypes.Compute(b.Method).Before(join);

        Assert.Equal(["System.Int32"], stack.Select(t => t.FullName));
    }

    [Fact]
    public void Generic_return_types_are_substituted()
    {
        var b = new IlBuilder();
        var list = b.Local(b.Module.ImportReference(typeof(List<string>)));
        b.Emit(Instruction.Create(OpCodes.Ldloc, list));
        b.Emit(Instruction.Create(OpCodes.Ldc_I4, 0));
        b.Emit(Instruction.Create(OpCodes.Callvirt, b.Module.ImportReference(typeof(List<string>).GetProperty("Item")!.GetMethod)));
        var probe = b.Emit(Instruction.Create(OpCodes.Pop));
        b.Emit(Instruction.Create(OpCodes.Ret));

        var stack = StackTypes.Compute(b.Method).Before(probe);

        Assert.Equal("System.String", Assert.Single(stack).FullName);
    }

    [Fact]
    public void Catch_handler_starts_with_the_exception_and_null_is_distinguished()
    {
        var b = new IlBuilder();
        var exception = b.Module.ImportReference(typeof(InvalidOperationException));
        var end = Instruction.Create(OpCodes.Ret);
        var tryStart = b.Emit(Instruction.Create(OpCodes.Ldnull));
        var afterNull = b.Emit(Instruction.Create(OpCodes.Pop));
        b.Emit(Instruction.Create(OpCodes.Leave, end));
        var handler = b.Emit(Instruction.Create(OpCodes.Pop));
        b.Emit(Instruction.Create(OpCodes.Leave, end));
        b.Emit(end);
        b.Method.Body.ExceptionHandlers.Add(new ExceptionHandler(ExceptionHandlerType.Catch)
        {
            TryStart = tryStart, TryEnd = handler, HandlerStart = handler, HandlerEnd = end, CatchType = exception,
        });

        var types = StackTypes.Compute(b.Method);

        Assert.Same(StackTypes.NullType, Assert.Single(types.Before(afterNull)));
        Assert.Equal(exception.FullName, Assert.Single(types.Before(handler)).FullName);
    }

    [Fact]
    public void Unknown_opcode_sequences_fail_loudly_instead_of_guessing()
    {
        var b = new IlBuilder();
        b.Emit(Instruction.Create(OpCodes.Pop));
        b.Emit(Instruction.Create(OpCodes.Ret));

        var error = Assert.Throws<NotSupportedException>(() => StackTypes.Compute(b.Method));
        Assert.Contains("underflow", error.Message);
    }
}
