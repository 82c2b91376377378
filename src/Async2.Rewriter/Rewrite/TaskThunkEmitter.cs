using Async2.Rewriter.Analysis;
using Mono.Cecil;
using Mono.Cecil.Cil;
using Mono.Cecil.Rocks;

namespace Async2.Rewriter.Rewrite;

/// <summary>
/// Gives the original method M a new body: the Task thunk (async1 → async2) over its variant.
/// <code>
/// ThunkScope scope = ThunkScope.Enter();   // only if M's body may change a context: a default scope restores nothing
/// StackGuard.SetFloor(ref chain);
/// chain.LendContextScope();      // only if M' has a context scope (ContextScopeEmitter): the thunk restores the contexts for it
/// try   { result = TaskThunk.Complete{Task|ValueTask}(M'(args, ref chain), ref chain, ref scope); }   // the fresh-call variant (or M'(args, ref chain, null))
/// catch (Exception e) { result = TaskThunk.Fail{Task|ValueTask}(e, ref scope); }
/// return result;
/// </code>
/// </summary>
internal static class TaskThunkEmitter
{
    /// <param name="bodyMayChangeContexts">Whether M's body may change a context (ContextScopeEmitter.MayChangeContexts), which the thunk then puts back.</param>
    /// <param name="variantHasContextScope">Whether M' puts them back itself (compatible mode), which the thunk then does for it.</param>
    public static void Emit(VariantDeclaration declaration, RuntimeReferences runtime, bool bodyMayChangeContexts, bool variantHasContextScope)
    {
        var original = declaration.Original;
        var module = original.Module;
        var body = new MethodBody(original) { InitLocals = true };
        original.Body = body;
        original.ImplAttributes &= ~(MethodImplAttributes)RuntimeNames.AsyncImplFlag;
        // The thunk catches whatever the variant throws: its frame would follow the variant's, of
        // the same name, in every stack trace (classic async shows one frame, its MoveNext).
        original.CustomAttributes.Add(CoreAttributes.StackTraceHidden(module));
        // Naming the continuation class as M's state machine makes stack traces print M''s frames as M.
        original.CustomAttributes.Add(CoreAttributes.AsyncStateMachine(module, declaration.Continuation));
        // Callers in this assembly call M' directly, so nothing may reference M itself; a trimmed
        // or NativeAOT publish would then drop M, and with it the attribute that names M' as M.
        // The trimmer takes a kept method with [DynamicallyAccessedMembers] for one reflection may
        // invoke (IL2111); M is kept only to be named in traces, and every call reaches it as before.
        bool annotated = original.Parameters.Any(CoreAttributes.HasTrimmingAnnotations) || original.GenericParameters.Any(CoreAttributes.HasTrimmingAnnotations);
        foreach (var callee in new[] { declaration.Variant, declaration.Fresh })
        {
            callee?.CustomAttributes.Add(CoreAttributes.DynamicDependency(module, original));
            if (annotated)
                callee?.CustomAttributes.Add(CoreAttributes.UnconditionalSuppressMessage(module, "Trimming", "IL2111",
                    "The Task thunk is kept to name this method in stack traces; it is not invoked through reflection."));
        }

        var chain = new VariableDefinition(runtime.AsyncChain);
        var scope = new VariableDefinition(runtime.ThunkScope);
        var result = new VariableDefinition(original.ReturnType);
        body.Variables.Add(chain);
        body.Variables.Add(scope);
        body.Variables.Add(result);

        var il = body.GetILProcessor();
        var exceptionType = new TypeReference("System", "Exception", module, module.TypeSystem.CoreLibrary);
        var complete = runtime.Thunk("Complete" + declaration.Shape.ThunkSuffix, declaration.Shape.Result);
        var fail = runtime.Thunk("Fail" + declaration.Shape.ThunkSuffix, declaration.Shape.Result);
        var done = Instruction.Create(OpCodes.Ldloc, result);

        if (bodyMayChangeContexts)
        {
            il.Emit(OpCodes.Call, runtime.ThunkScopeEnter);
            il.Emit(OpCodes.Stloc, scope);
        }
        il.Emit(OpCodes.Ldloca, chain);
        il.Emit(OpCodes.Call, runtime.StackGuardSetFloor);
        if (variantHasContextScope)
        {
            il.Emit(OpCodes.Ldloca, chain);
            il.Emit(OpCodes.Call, runtime.LendContextScope);
        }
        var tryStart = Instruction.Create(OpCodes.Nop);
        il.Append(tryStart);
        if (original.HasThis)
            il.Emit(OpCodes.Ldarg, body.ThisParameter);
        foreach (var parameter in original.Parameters)
            il.Emit(OpCodes.Ldarg, parameter);
        il.Emit(OpCodes.Ldloca, chain);
        var variant = declaration.CallOn(TypeResolution.SelfInstance(original.DeclaringType), original.GenericParameters.ToArray<TypeReference>());
        foreach (var instruction in variant.AfterChain(instanceCall: OpCodes.Call))
            il.Append(instruction);
        il.Emit(OpCodes.Ldloca, chain);
        il.Emit(OpCodes.Ldloca, scope);
        il.Emit(OpCodes.Call, complete);
        il.Emit(OpCodes.Stloc, result);
        il.Emit(OpCodes.Leave, done);
        var handlerStart = Instruction.Create(OpCodes.Ldloca, scope);
        il.Append(handlerStart);
        il.Emit(OpCodes.Call, fail);
        il.Emit(OpCodes.Stloc, result);
        il.Emit(OpCodes.Leave, done);
        il.Append(done);
        il.Emit(OpCodes.Ret);

        body.ExceptionHandlers.Add(new ExceptionHandler(ExceptionHandlerType.Catch)
        {
            TryStart = tryStart,
            TryEnd = handlerStart,
            HandlerStart = handlerStart,
            HandlerEnd = done,
            CatchType = exceptionType,
        });
        body.OptimizeMacros();
    }
}
