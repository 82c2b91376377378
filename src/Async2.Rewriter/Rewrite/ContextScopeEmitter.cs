using Async2.Rewriter.Analysis;
using Mono.Cecil;
using Mono.Cecil.Cil;

namespace Async2.Rewriter.Rewrite;

/// <summary>
/// Last rewrite pass over a variant: brackets the whole body with a context scope, the compatible
/// context mode of the design. A classic async method gives its caller back the ExecutionContext
/// and SynchronizationContext it was called with, whether it returns, throws or suspends, so
/// AsyncLocal values it sets never leak into the caller. A variant called directly by another
/// variant has no builder to do that, so it does it itself:
/// <code>
///     scope = ThunkScope.EnterVariant(ref chain);
///     try {
///         try   { ...body, every `ret` turned into `stloc result; leave END`... }
///         fault { scope.ExitVariant(ref chain); }
///     }
///     catch (object) when (scope.ChangedContexts()) { rethrow; }   // or, with the stack low, leave and throw it again: RethrowingHandler
/// END: scope.ExitVariant(ref chain); ldloc result; ret
/// </code>
/// Every way out but an exception (returning, suspending) goes through END; an exception puts the
/// contexts back in the fault, after the body's own finally blocks, which see the method's, as in
/// classic async. Exception filters run before finally blocks, though: a caller's
/// <c>catch ... when</c> would see the contexts the method left behind, where classic async (whose
/// builder catches everything) shows it the caller's own. So an exception that leaves while the
/// contexts differ is caught, and rethrown once the fault has put them back; any other passes on
/// untouched, with no second throw (and, in Mono, which gives a rethrowing frame the rethrow's
/// line, with the line it was thrown at).
/// The scope is taken again on every resumption (the dispatcher has already put back the
/// frame's own ExecutionContext by then), so it needs no room in the continuation; there it
/// leaves the contexts the method returns or throws in to the dispatcher, which treats them as
/// classic async's continuation of the caller does (Async2.Runtime's ThunkScope.EnterVariant).
/// A method that cannot change either context itself gets no scope (see <see cref="MayChangeContexts"/>):
/// the scope costs two context reads and a protected region, which also keeps the JIT from inlining.
/// </summary>
internal static class ContextScopeEmitter
{
    /// <summary>
    /// Whether the original body may change the ExecutionContext or SynchronizationContext before
    /// it returns. Changing either takes user code: a call, or a static field of a type whose static
    /// constructor the access may run. So a body whose only calls are awaits, direct calls
    /// to other rewritten methods in compatible mode (which restore their own changes) and members
    /// of the Task machinery (which never change the caller's contexts) needs no scope. Anything
    /// else, a custom awaiter, a ValueTask (its source is user code), a callee in flowing mode, or a
    /// virtual call that may reach an override or implementation that is not rewritten, is assumed
    /// to change them.
    /// </summary>
    public static bool MayChangeContexts(MethodDefinition original, IReadOnlyList<AwaitSite> sites)
    {
        var contextNeutral = new HashSet<Instruction>(sites.Where(s => !(s.Kind == AwaitKind.Awaitable && MayHaveSource(s.Operand))).Select(s => s.Await));
        contextNeutral.UnionWith(sites
            .Where(s => s.Call is not null && ReachesOnlyItsOwnBody(s) && !ScopedAttributes.FlowsContexts(s.Callee!))
            .Select(s => s.Call!));
        foreach (var instruction in original.Body.Instructions)
        {
            if (instruction.OpCode.Code is Code.Ldsfld or Code.Ldsflda or Code.Stsfld
                && MayRunTypeInitializer(((FieldReference)instruction.Operand).DeclaringType, original.DeclaringType))
                return true;
            if (instruction.OpCode.FlowControl != FlowControl.Call || contextNeutral.Contains(instruction))
                continue;
            if (instruction.Operand is not MethodReference callee || !LeavesContextsAlone(callee))
                return true;
        }
        return false;
    }

    /// <summary>
    /// Whether touching a static field of <paramref name="type"/> may run a static constructor in
    /// the body. Not the method's own type's: an explicit one ran before the call, as for classic
    /// async's stub; field initializers alone (beforefieldinit) may run at the first field access,
    /// inside the body, but counting them would put a scope on every method reading a static of its
    /// own class, ten times the cost of a call in the compatible mode (bench callcost), for a
    /// difference design.md documents. A generic type's other instantiations count: they have
    /// constructors of their own. Nor the compiler's types (a lambda cache: marked and named so by
    /// the compiler), nor the core library's.
    /// </summary>
    private static bool MayRunTypeInitializer(TypeReference type, TypeDefinition owner)
    {
        if (IsCoreLibrary(type))
            return false;
        try
        {
            return type.Resolve() is not { } definition
                || ((definition != owner || definition.HasGenericParameters)
                    && !IsCompilerGenerated(definition)
                    && definition.Methods.Any(method => method.IsConstructor && method.IsStatic));
        }
        catch (AssemblyResolutionException)
        {
            return true;
        }
    }

    private static bool IsCompilerGenerated(TypeDefinition type) =>
        type.Name.StartsWith('<') && type.CustomAttributes.Any(a => a.AttributeType.FullName == "System.Runtime.CompilerServices.CompilerGeneratedAttribute");

    private static bool ReachesOnlyItsOwnBody(AwaitSite direct) =>
        direct.Call!.OpCode.Code == Code.Call || !VirtualEntries.CanBeOverridden(direct.Callee!);

    /// <summary>
    /// Calls of core-library members that neither touch the contexts nor call user code: members of
    /// tasks, their awaitables and awaiters, exception types and ExceptionDispatchInfo (a method that
    /// throws, or awaits in a catch, calls them), strings and Math. Not a virtual member, which may
    /// reach a user's override (an exception's Message), also when called as a base member
    /// (`base.ToString()` reads the override of Message), nor an exception's other instance
    /// members, which may call the instance's overrides (AggregateException.Flatten reads Message),
    /// nor a string method given anything but
    /// text, characters and numbers (string.Concat(object) calls ToString, string.Format formats),
    /// nor a member that runs a task here (Start, RunSynchronously, Wait, Result: a TaskScheduler's
    /// QueueTask or TryExecuteTaskInline, a ValueTask's source) or takes a TaskScheduler, a
    /// TimeProvider (Task.Delay and WaitAsync call its CreateTimer) or a sequence
    /// (Task.WhenAll(IEnumerable), new AggregateException(IEnumerable) enumerate it), nor one that
    /// runs user code it is given (<see cref="RunsUserCodeItIsGiven"/>).
    /// </summary>
    private static bool LeavesContextsAlone(MethodReference callee)
    {
        if (!LeavesContextsAlone(callee.DeclaringType))
            return false;
        if (callee.HasThis && (IsVirtual(callee) || (IsException(callee.DeclaringType) && callee.Name != ".ctor")))
            return false;
        if (RunsAppCodeHere(callee) || callee.Parameters.Any(p => IsUserCodeParameter(p.ParameterType)) || RunsUserCodeItIsGiven(callee))
            return false;
        if (MayHaveSource(callee.DeclaringType) && !WrapsWithoutAskingTheSource(callee))
            return false;
        return callee.DeclaringType.FullName != "System.String" || callee.Parameters.All(p => IsPlainText(p.ParameterType));
    }

    /// <summary>
    /// Whether a member outside the Task machinery may run user code it is given, here: a delegate
    /// (AggregateException.Handle calls its predicate), or the members of a generic method's type
    /// argument that is not a plain core-library type (ArgumentOutOfRangeException.ThrowIfEqual&lt;T&gt;
    /// calls T's Equals, ThrowIfGreaterThan&lt;T&gt; its CompareTo; over an int they call the int's).
    /// Tasks and awaiters run the delegates they are given later, as a task or a continuation in the
    /// ExecutionContext captured with it, and call nothing on their type arguments.
    /// </summary>
    private static bool RunsUserCodeItIsGiven(MethodReference callee) =>
        Outermost(callee.DeclaringType).Namespace is not ("System.Threading.Tasks" or "System.Runtime.CompilerServices")
        && ((callee is GenericInstanceMethod generic && generic.GenericArguments.Any(argument => argument is TypeSpecification or GenericParameter || !IsCoreLibrary(argument)))
            || callee.Parameters.Any(p => IsDelegate(p.ParameterType)));

    /// <summary>Whether <paramref name="type"/> is a delegate type; a generic parameter's argument is judged as a type argument.</summary>
    private static bool IsDelegate(TypeReference type)
    {
        if (type.GetElementType() is GenericParameter)
            return false;
        try
        {
            return type.Resolve() is not { } definition || definition.BaseType?.FullName is "System.MulticastDelegate" or "System.Delegate";
        }
        catch (AssemblyResolutionException)
        {
            return true;
        }
    }

    /// <summary>
    /// Task machinery that runs code the app may have supplied, here: a task run on the calling
    /// thread (a TaskScheduler's QueueTask or TryExecuteTaskInline, a ValueTask's source), a
    /// continuation handed to TaskScheduler.Current (ContinueWith), whose QueueTask may run it
    /// inline, or an awaiter registered by hand (OnCompleted, UnsafeOnCompleted post to
    /// SynchronizationContext.Current or queue to TaskScheduler.Current).
    /// </summary>
    private static bool RunsAppCodeHere(MethodReference callee) =>
        (callee.DeclaringType.Namespace == "System.Threading.Tasks"
            && callee.Name is "Start" or "RunSynchronously" or "Wait" or "WaitAll" or "WaitAny" or "get_Result" or "ContinueWith")
        || callee.Name is "OnCompleted" or "UnsafeOnCompleted";

    /// <summary>Whether <paramref name="type"/> (or the type it is nested in) is one of the core library's System.*Exception types.</summary>
    private static bool IsException(TypeReference type) =>
        Outermost(type) is { Namespace: "System" } outermost && outermost.Name.EndsWith("Exception", StringComparison.Ordinal);

    /// <summary>
    /// A ValueTask, its configured form or an awaiter of either: it may be backed by a user's
    /// IValueTaskSource, whose GetStatus, GetResult and OnCompleted run where the ValueTask is
    /// asked whether it completed, for its result or to register (an await of it included), and
    /// may change the contexts there, as any user code may.
    /// </summary>
    private static bool MayHaveSource(TypeReference type) =>
        IsCoreLibrary(type) && Outermost(type).GetElementType().FullName is "System.Threading.Tasks.ValueTask" or "System.Threading.Tasks.ValueTask`1"
            or "System.Runtime.CompilerServices.ValueTaskAwaiter" or "System.Runtime.CompilerServices.ValueTaskAwaiter`1"
            or "System.Runtime.CompilerServices.ConfiguredValueTaskAwaitable" or "System.Runtime.CompilerServices.ConfiguredValueTaskAwaitable`1";

    /// <summary>The members of a ValueTask and its awaitables that make or wrap one without asking its source anything.</summary>
    private static bool WrapsWithoutAskingTheSource(MethodReference member) =>
        member.Name is ".ctor" or "ConfigureAwait" or "GetAwaiter" or "get_CompletedTask" or "FromResult" or "FromException" or "FromCanceled";

    private static bool IsUserCodeParameter(TypeReference type) =>
        type.FullName is "System.Threading.Tasks.TaskScheduler" or "System.TimeProvider" or "System.Collections.IEnumerable"
        || type is GenericInstanceType { ElementType.FullName: "System.Collections.Generic.IEnumerable`1" };

    private static bool IsVirtual(MethodReference method)
    {
        try
        {
            return method.Resolve() is not { IsVirtual: false };
        }
        catch (AssemblyResolutionException)
        {
            return true;
        }
    }

    private static bool IsPlainText(TypeReference type) => type.FullName is "System.String" or "System.String[]" or "System.Char"
        or "System.Char[]" or "System.Int32" or "System.Int64" or "System.Boolean" or "System.StringComparison"
        or "System.StringSplitOptions" or "System.ReadOnlySpan`1<System.Char>";

    private static TypeReference Outermost(TypeReference type)
    {
        while (type.DeclaringType is not null)
            type = type.DeclaringType;
        return type;
    }

    private static bool IsCoreLibrary(TypeReference type) =>
        Outermost(type).Scope.Name is "System.Runtime" or "System.Private.CoreLib" or "netstandard" or "mscorlib";

    private static bool LeavesContextsAlone(TypeReference type)
    {
        var outermost = Outermost(type);
        if (!IsCoreLibrary(outermost))
            return false;
        return outermost.Namespace switch
        {
            "System.Threading.Tasks" => outermost.Name is "Task" or "Task`1" or "ValueTask" or "ValueTask`1"
                or "ConfiguredValueTaskAwaitable" or "ConfiguredValueTaskAwaitable`1",
            "System.Runtime.CompilerServices" => outermost.Name.Contains("Awaitable") || outermost.Name.Contains("Awaiter"),
            "System.Runtime.ExceptionServices" => outermost.Name == "ExceptionDispatchInfo",
            "System" => outermost.Name is "String" or "Math" || (IsException(outermost) && !outermost.HasGenericParameters),
            _ => false,
        };
    }

    /// <param name="method">M' or its fresh-call variant, whose <c>ref AsyncChain</c> parameter is <paramref name="chain"/>.</param>
    public static void Emit(MethodDefinition method, ParameterDefinition chain, TaskShape shape, RuntimeReferences runtime)
    {
        var body = method.Body;
        var scope = new VariableDefinition(runtime.ThunkScope);
        body.Variables.Add(scope);
        VariableDefinition? result = null;
        if (shape.HasResult)
        {
            result = new VariableDefinition(shape.Result);
            body.Variables.Add(result);
        }

        var epilogue = new List<Instruction>
        {
            Instruction.Create(OpCodes.Ldloca, scope),
            Instruction.Create(OpCodes.Ldarg, chain),
            Instruction.Create(OpCodes.Call, runtime.ThunkScopeExitVariant),
        };
        if (result is not null)
            epilogue.Add(Instruction.Create(OpCodes.Ldloc, result));
        epilogue.Add(Instruction.Create(OpCodes.Ret));

        // No `ret` may stay inside the try: each becomes a leave to the shared epilogue. The ret
        // object itself is rewritten in place, so branches to it still land on its replacement.
        foreach (var ret in body.Instructions.Where(i => i.OpCode.Code == Code.Ret).ToList())
        {
            if (result is null)
            {
                ret.OpCode = OpCodes.Leave;
                ret.Operand = epilogue[0];
            }
            else
            {
                ret.OpCode = OpCodes.Stloc;
                ret.Operand = result;
                BodyEditing.InsertAfter(body, ret, [Instruction.Create(OpCodes.Leave, epilogue[0])]);
            }
        }

        var tryStart = body.Instructions[0];
        BodyEditing.InsertAtEntry(body,
        [
            Instruction.Create(OpCodes.Ldarg, chain),
            Instruction.Create(OpCodes.Call, runtime.ThunkScopeEnterVariant),
            Instruction.Create(OpCodes.Stloc, scope),
        ]);
        var faultStart = Instruction.Create(OpCodes.Ldloca, scope);
        var filterStart = Instruction.Create(OpCodes.Pop);
        var (rethrowing, afterHandler) = RethrowingHandler.Create(body, runtime);
        Instruction[] handlers =
        [
            faultStart,
            Instruction.Create(OpCodes.Ldarg, chain),
            Instruction.Create(OpCodes.Call, runtime.ThunkScopeExitVariant),
            Instruction.Create(OpCodes.Endfinally),
            filterStart,
            Instruction.Create(OpCodes.Ldloca, scope),
            Instruction.Create(OpCodes.Call, runtime.ThunkScopeChangedContexts),
            Instruction.Create(OpCodes.Endfilter),
            .. rethrowing,
            .. afterHandler,
        ];
        foreach (var instruction in handlers.Concat(epilogue))
            body.Instructions.Add(instruction);

        // The two outermost regions, each listed after every region it encloses, as ECMA-335 requires.
        body.ExceptionHandlers.Add(new ExceptionHandler(ExceptionHandlerType.Fault)
        {
            TryStart = tryStart,
            TryEnd = faultStart,
            HandlerStart = faultStart,
            HandlerEnd = filterStart,
        });
        body.ExceptionHandlers.Add(new ExceptionHandler(ExceptionHandlerType.Filter)
        {
            TryStart = tryStart,
            TryEnd = filterStart,
            FilterStart = filterStart,
            HandlerStart = rethrowing[0],
            HandlerEnd = afterHandler[0],
        });
    }
}
