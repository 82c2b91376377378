using Async2.Rewriter.Analysis;
using Mono.Cecil.Cil;
using Xunit;

namespace Async2.Tests.Analysis;

public class LivenessTests
{
    [Fact]
    public void Only_variables_read_later_are_live()
    {
        var b = new IlBuilder(new IlBuilder().Types.Int32);
        var used = b.Local(b.Types.Int32);
        var dead = b.Local(b.Types.Int32);
        b.Emit(Instruction.Create(OpCodes.Ldc_I4, 1));
        b.Emit(Instruction.Create(OpCodes.Stloc, used));
        b.Emit(Instruction.Create(OpCodes.Ldc_I4, 2));
        b.Emit(Instruction.Create(OpCodes.Stloc, dead));
        var point = b.Emit(Instruction.Create(OpCodes.Nop));
        b.Emit(Instruction.Create(OpCodes.Ldloc, used));
        b.Emit(Instruction.Create(OpCodes.Ret));

        var live = Liveness.Compute(b.Method.Body).LiveBefore(point);

        Assert.Equal([used.Index], live);
    }

    [Fact]
    public void A_redefinition_kills_liveness_and_arguments_are_numbered_after_locals()
    {
        var b = new IlBuilder(new IlBuilder().Types.Int32, new IlBuilder().Types.Int32);
        var local = b.Local(b.Types.Int32);
        var point = b.Emit(Instruction.Create(OpCodes.Nop));
        b.Emit(Instruction.Create(OpCodes.Ldc_I4, 5));
        b.Emit(Instruction.Create(OpCodes.Stloc, local));
        b.Emit(Instruction.Create(OpCodes.Ldloc, local));
        b.Emit(Instruction.Create(OpCodes.Ldarg, b.Method.Parameters[0]));
        b.Emit(Instruction.Create(OpCodes.Add));
        b.Emit(Instruction.Create(OpCodes.Ret));

        var liveness = Liveness.Compute(b.Method.Body);

        Assert.Equal([liveness.LocalCount + 0], liveness.LiveBefore(point));
    }

    [Fact]
    public void A_variable_read_in_a_catch_is_live_throughout_its_try()
    {
        var b = new IlBuilder();
        var seenInCatch = b.Local(b.Types.Int32);
        var end = Instruction.Create(OpCodes.Ret);
        b.Emit(Instruction.Create(OpCodes.Ldc_I4, 7));
        b.Emit(Instruction.Create(OpCodes.Stloc, seenInCatch));
        var tryStart = b.Emit(Instruction.Create(OpCodes.Nop));
        var point = b.Emit(Instruction.Create(OpCodes.Nop));
        b.Emit(Instruction.Create(OpCodes.Leave, end));
        var handler = b.Emit(Instruction.Create(OpCodes.Pop));
        b.Emit(Instruction.Create(OpCodes.Ldloc, seenInCatch));
        b.Emit(Instruction.Create(OpCodes.Pop));
        b.Emit(Instruction.Create(OpCodes.Leave, end));
        b.Emit(end);
        b.Method.Body.ExceptionHandlers.Add(new ExceptionHandler(ExceptionHandlerType.Catch)
        {
            TryStart = tryStart, TryEnd = handler, HandlerStart = handler, HandlerEnd = end, CatchType = b.Types.Object,
        });

        var live = Liveness.Compute(b.Method.Body).LiveBefore(point);

        Assert.Equal([seenInCatch.Index], live);
    }

    [Fact]
    public void Zeroing_through_an_address_is_a_definition()
    {
        var b = new IlBuilder();
        var value = b.Local(b.Module.ImportReference(typeof(DateTime)));
        var point = b.Emit(Instruction.Create(OpCodes.Nop));
        b.Emit(Instruction.Create(OpCodes.Ldloca, value));
        b.Emit(Instruction.Create(OpCodes.Initobj, value.VariableType));
        b.Emit(Instruction.Create(OpCodes.Ldloca, value));
        b.Emit(Instruction.Create(OpCodes.Pop));
        b.Emit(Instruction.Create(OpCodes.Ret));

        Assert.Empty(Liveness.Compute(b.Method.Body).LiveBefore(point));
    }
}
