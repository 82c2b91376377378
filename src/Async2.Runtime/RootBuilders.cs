// RootBuilders: AsyncTaskMethodBuilder and AsyncTaskMethodBuilder<T> behind one face, for the
// chain roots (ChainRoot.cs, BuilderRoot.cs), which complete the thunk's Task as classic async's
// builder does: OperationCanceledException makes it canceled, any other exception faulted.
// The two BCL builders share no interface, hence the two thin wrappers.
using System.Runtime.CompilerServices;
using System.Runtime.ExceptionServices;

namespace Async2.Runtime;

internal interface IRootBuilder
{
    void AwaitUnsafeOnCompleted<TAwaiter, TMachine>(ref TAwaiter awaiter, ref TMachine machine)
        where TAwaiter : ICriticalNotifyCompletion where TMachine : IAsyncStateMachine;

    void AwaitOnCompleted<TAwaiter, TMachine>(ref TAwaiter awaiter, ref TMachine machine)
        where TAwaiter : INotifyCompletion where TMachine : IAsyncStateMachine;

    /// <summary>Creates the Task before any registration, for a root that registers without the builder.</summary>
    void CreateTask();

    /// <summary>Completes the Task with the outermost frame's result, or with the exception the chain ended with.</summary>
    void Complete(Continuation outermost, ExceptionDispatchInfo? fault);
}

/// <summary>The builder of a <see cref="Task"/>.</summary>
internal struct VoidTaskBuilder : IRootBuilder
{
    private AsyncTaskMethodBuilder _builder;

    /// <summary>
    /// Read after the first registration, or after <see cref="CreateTask"/>: before either, the
    /// builder would make a Task that a registration through it then replaces with its box.
    /// </summary>
    internal Task Task => _builder.Task;

    public void CreateTask() => _ = _builder.Task;

    public void AwaitUnsafeOnCompleted<TAwaiter, TMachine>(ref TAwaiter awaiter, ref TMachine machine)
        where TAwaiter : ICriticalNotifyCompletion where TMachine : IAsyncStateMachine =>
        _builder.AwaitUnsafeOnCompleted(ref awaiter, ref machine);

    public void AwaitOnCompleted<TAwaiter, TMachine>(ref TAwaiter awaiter, ref TMachine machine)
        where TAwaiter : INotifyCompletion where TMachine : IAsyncStateMachine =>
        _builder.AwaitOnCompleted(ref awaiter, ref machine);

    public void Complete(Continuation outermost, ExceptionDispatchInfo? fault)
    {
        if (fault is not null)
            _builder.SetException(fault.SourceException);
        else
            _builder.SetResult();
    }
}

/// <summary>The builder of a <see cref="Task{T}"/>.</summary>
internal struct TaskBuilder<T> : IRootBuilder
{
    private AsyncTaskMethodBuilder<T> _builder;

    /// <summary>Read after the first registration, or after <see cref="CreateTask"/> (see <see cref="VoidTaskBuilder.Task"/>).</summary>
    internal Task<T> Task => _builder.Task;

    public void CreateTask() => _ = _builder.Task;

    public void AwaitUnsafeOnCompleted<TAwaiter, TMachine>(ref TAwaiter awaiter, ref TMachine machine)
        where TAwaiter : ICriticalNotifyCompletion where TMachine : IAsyncStateMachine =>
        _builder.AwaitUnsafeOnCompleted(ref awaiter, ref machine);

    public void AwaitOnCompleted<TAwaiter, TMachine>(ref TAwaiter awaiter, ref TMachine machine)
        where TAwaiter : INotifyCompletion where TMachine : IAsyncStateMachine =>
        _builder.AwaitOnCompleted(ref awaiter, ref machine);

    public void Complete(Continuation outermost, ExceptionDispatchInfo? fault)
    {
        if (fault is not null)
            _builder.SetException(fault.SourceException);
        else
            _builder.SetResult(Unsafe.As<Continuation<T>>(outermost).Result);
    }
}
