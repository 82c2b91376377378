using Async2.Rewriter.Analysis;
using Mono.Cecil.Cil;
using Xunit;

namespace Async2.Tests.Analysis;

public class ProtectedRegionsTests
{
    [Fact]
    public void Enclosing_trys_are_listed_outermost_first_and_shared_trys_once()
    {
        // try { try { P } catch {} catch {} } finally {}
        var b = new IlBuilder();
        var end = Instruction.Create(OpCodes.Ret);
        var outerStart = b.Emit(Instruction.Create(OpCodes.Nop));
        var innerStart = b.Emit(Instruction.Create(OpCodes.Nop));
        var point = b.Emit(Instruction.Create(OpCodes.Nop));
        var afterInner = Instruction.Create(OpCodes.Leave, end);
        b.Emit(Instruction.Create(OpCodes.Leave, afterInner));
        var catch1 = b.Emit(Instruction.Create(OpCodes.Pop));
        b.Emit(Instruction.Create(OpCodes.Leave, afterInner));
        var catch2 = b.Emit(Instruction.Create(OpCodes.Pop));
        b.Emit(Instruction.Create(OpCodes.Leave, afterInner));
        b.Emit(afterInner);
        var @finally = b.Emit(Instruction.Create(OpCodes.Endfinally));
        b.Emit(end);
        var handlers = b.Method.Body.ExceptionHandlers;
        handlers.Add(new ExceptionHandler(ExceptionHandlerType.Catch) { TryStart = innerStart, TryEnd = catch1, HandlerStart = catch1, HandlerEnd = catch2, CatchType = b.Types.Object });
        handlers.Add(new ExceptionHandler(ExceptionHandlerType.Catch) { TryStart = innerStart, TryEnd = catch1, HandlerStart = catch2, HandlerEnd = afterInner, CatchType = b.Types.Object });
        handlers.Add(new ExceptionHandler(ExceptionHandlerType.Finally) { TryStart = outerStart, TryEnd = @finally, HandlerStart = @finally, HandlerEnd = end });

        var regions = ProtectedRegions.Compute(b.Method.Body);
        int at = regions.IndexOf[point];

        // Indexes: outer try [0, 9) ends at the finally; inner try [1, 4) ends at the first catch.
        Assert.Equal([(0, 9), (1, 4)], regions.TryBlocksEnclosing(at));
        Assert.True(regions.TrysEnclosing(at)[0].RunsOnLeave);
        Assert.DoesNotContain(regions.TrysEnclosing(regions.IndexOf[catch1]), r => r.TryStart == 1);
    }
}
