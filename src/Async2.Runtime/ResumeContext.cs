// ResumeContext: where a frame that awaited another rewritten method continues.
//
// A classic `await callee()` captures the SynchronizationContext (or, failing that, a non-default
// TaskScheduler) current at the await and continues there, whatever thread the callee finished
// on. Variant-to-variant calls bypass the awaiter that would do this, so the suspending frame
// records the context itself (AsyncChain.LinkAwaitingCallee) and the dispatcher, before resuming
// such a frame elsewhere, hands the rest of the chain to that context (ResumeOn).
using System.Runtime.ExceptionServices;

namespace Async2.Runtime;

internal static class ResumeContext
{
    /// <summary>The context an await running now would continue on, or null for "any thread".</summary>
    /// <param name="thread">The current thread, if the caller has it (<see cref="ThreadContexts"/>).</param>
    internal static object? Capture(Thread? thread)
    {
        var synchronizationContext = ThreadContexts.SynchronizationContextOf(thread);
        // The base SynchronizationContext posts to the thread pool: no different from none.
        if (synchronizationContext is not null && synchronizationContext.GetType() != typeof(SynchronizationContext))
            return synchronizationContext;
        var scheduler = TaskScheduler.Current;
        return scheduler == TaskScheduler.Default ? null : scheduler;
    }

    /// <summary>
    /// Whether a continuation that captured no context may run here, inline: classic async runs it
    /// inline only outside any non-default SynchronizationContext or TaskScheduler, and queues it
    /// to the thread pool otherwise.
    /// </summary>
    /// <param name="thread">The current thread, if the caller has it (<see cref="ThreadContexts"/>).</param>
    internal static bool AllowsInlining(Thread? thread) => Capture(thread) is null;

    /// <summary>
    /// Whether a frame that awaited in <paramref name="context"/> may simply go on here: under that
    /// SynchronizationContext already. Never for a TaskScheduler: classic async asks the scheduler
    /// even when it is current (<see cref="ResumeOn"/>), and a scheduler may refuse.
    /// </summary>
    /// <param name="thread">The current thread, if the caller has it (<see cref="ThreadContexts"/>).</param>
    internal static bool IsCurrent(object context, Thread? thread) => context switch
    {
        SynchronizationContext synchronizationContext => ThreadContexts.SynchronizationContextOf(thread) == synchronizationContext,
        TaskScheduler => false,
        _ => true,
    };

    /// <summary>
    /// Where a frame that awaited under the SynchronizationContext now current goes on while a task
    /// of a custom TaskScheduler runs (the callee was resumed in one): here, but outside that
    /// scheduler. Classic async runs such a continuation inline with no current task, so its code
    /// starts tasks and awaits Task.Yield on the default scheduler; a library cannot leave the
    /// current task, so the dispatch goes on inside a task run on the spot that hides its scheduler.
    /// </summary>
    internal static readonly object OutsideTaskScheduler = new();

    /// <summary>
    /// Continues the dispatch of a chain at <paramref name="frame"/> (null: past the outermost frame,
    /// where <paramref name="root"/> completes the Task) inside <paramref name="context"/> (a
    /// SynchronizationContext, a TaskScheduler: <see cref="TaskScheduler.Default"/> for the
    /// thread pool, or <see cref="OutsideTaskScheduler"/>), with the callee's outcome. A frame that
    /// suspended with the flow suppressed saved no ExecutionContext and continues in the one of the
    /// thread it runs on, as classic async's box that captured none does (the thread pool's
    /// default, or the context's thread's); otherwise the current one goes along.
    /// </summary>
    /// <param name="outermostLinkedInRegistration">
    /// Where the dispatch that moves runs inside its root's registration, the outermost frame that
    /// registration's suspension linked (<see cref="IDispatchEnds.OutermostLinkedInRegistration"/>):
    /// the callers of the frames before it find them complete, wherever they run.
    /// </param>
    internal static void ResumeOn(object context, Continuation? frame, ChainRoot root, Continuation? completed, ExceptionDispatchInfo? fault, Continuation? outermostLinkedInRegistration)
    {
        var resumption = new Resumption(frame, root, completed, fault, frame is { SavedExecutionContext: null } ? null : ExecutionContext.Capture(), outermostLinkedInRegistration);
        if (context is SynchronizationContext synchronizationContext)
        {
            try
            {
                synchronizationContext.Post(static state => ((Resumption)state!).Run(), resumption);
            }
            catch (Exception exception)
            {
                // A context that refuses (a closed UI context): classic async rethrows on the thread
                // pool, unhandled, rather than into the code that completed the callee.
                ChainRoot.RethrowOnThreadPool(exception);
            }
        }
        else if (context == OutsideTaskScheduler)
            new Task(static state => ((Resumption)state!).Run(), resumption, CancellationToken.None,
                TaskCreationOptions.HideScheduler | TaskCreationOptions.DenyChildAttach).RunSynchronously(TaskScheduler.Default);
        else if (context == TaskScheduler.Default)
            // As classic async queues a continuation that may not run inline: a work item, not a
            // Task, which code after the await would see as Task.CurrentId.
            ThreadPool.UnsafeQueueUserWorkItem(resumption, preferLocal: true);
        else if (TaskScheduler.Current == context || Thread.CurrentThread.IsThreadPoolThread)
        {
            // As classic async continues on a scheduler: run inline if the scheduler agrees
            // (TryExecuteTaskInline), else queued to it. A synchronous continuation of a completed
            // task is the public way to make that offer.
            var queuing = resumption.Queue();
            try
            {
                Task.CompletedTask.ContinueWith(static (_, state) => ((Resumption)state!).Run(), resumption, CancellationToken.None,
                    TaskContinuationOptions.ExecuteSynchronously | TaskContinuationOptions.DenyChildAttach, (TaskScheduler)context);
            }
            finally
            {
                resumption.Queued(queuing);
            }
        }
        else
        {
            var queuing = resumption.Queue();
            var task = new Task(static state => ((Resumption)state!).Run(), resumption, CancellationToken.None, TaskCreationOptions.DenyChildAttach);
            resumption.Queued(queuing);
            try
            {
                task.Start((TaskScheduler)context);
            }
            catch (TaskSchedulerException)
            {
                // A scheduler that refuses the work (disposed): classic async drops the continuation
                // too, and the Task stays incomplete.
            }
        }
    }

    private sealed class Resumption(Continuation? frame, ChainRoot root, Continuation? completed, ExceptionDispatchInfo? fault, ExecutionContext? executionContext,
        Continuation? outermostLinkedInRegistration) : IThreadPoolWorkItem
    {
        private static readonly ContextCallback s_dispatch = static state => ((Resumption)state!).Dispatch();

        /// <summary>
        /// While a resumption without a context of its own is handed to a TaskScheduler: the thread
        /// handing it over and its context, in which a scheduler running it inline runs it, as
        /// classic async's continuation that captured none runs where the callee completed.
        /// </summary>
        private (int Thread, ExecutionContext Context)? _queuedFrom;

        /// <summary>
        /// Called before a Task for this resumption is created: without a context of its own, the
        /// flow is suppressed so that the Task captures none either (it would carry the callee's
        /// context to the scheduler's thread), until <see cref="Queued"/>.
        /// </summary>
        internal AsyncFlowControl? Queue()
        {
            if (executionContext is not null || ExecutionContext.Capture() is not { } current)
                return null;
            _queuedFrom = (Environment.CurrentManagedThreadId, current);
            return ExecutionContext.SuppressFlow();
        }

        internal void Queued(AsyncFlowControl? queuing)
        {
            if (queuing is not { } flow)
                return;
            _queuedFrom = null;
            flow.Undo();
        }

        internal void Run()
        {
            // Without a context of its own, in the thread's, which the frames after it must not change for good.
            var context = executionContext
                ?? (_queuedFrom is { } queuedFrom && queuedFrom.Thread == Environment.CurrentManagedThreadId ? queuedFrom.Context : ExecutionContext.Capture());
            if (context is not null)
                ExecutionContext.Run(context, s_dispatch, this);
            else
                Dispatch();
        }

        void IThreadPoolWorkItem.Execute() => Run();

        private void Dispatch() => root.Continue(frame, completed, fault, outermostLinkedInRegistration);
    }
}
