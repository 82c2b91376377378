// AsyncStackTrace: "who is awaiting me", from inside a rewritten method, also after suspensions.
//
// Once a chain has suspended, its callers are no longer on the thread's stack: each waits as a
// Continuation linked behind the frame the dispatcher resumed (Dispatcher.cs records that frame).
// Capture() therefore reads the physical stack down to the dispatcher,
// then walks the links: each continuation names its method (the one whose [AsyncStateMachine]
// names the continuation's class) and, through [SuspensionPoints], the source line of the await
// it is suspended at. The dispatcher's store is made only under the AppContext switch
// Async2.LogicalStackTraces (about 4 ns per resumption otherwise paid by everyone); without it a
// capture lists the thread's frames and says why the callers are missing. Capturing costs a stack
// walk and reflection, like new StackTrace(true).
//
// Keep in sync with the rewriter: SuspensionPointsAttribute (Rewrite/SuspensionPointsEmitter.cs)
// and the continuation naming (VariantMap.cs).
using System.Collections.Concurrent;
using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;
using System.Reflection;
using System.Runtime.CompilerServices;
using System.Text;

namespace Async2.Runtime;

/// <summary>One frame of an <see cref="AsyncStackTrace"/>.</summary>
/// <param name="Method">The method as written (never an Async2 variant); null for a boundary.</param>
/// <param name="File">Its source file, from the PDB (physical frames) or from the rewrite (awaiting callers); null if unknown.</param>
/// <param name="Line">The line, 0 if unknown.</param>
/// <param name="IsAwaiting">Whether the frame is a caller suspended at an await, rather than a frame on the thread's stack.</param>
/// <param name="Boundary">For the end of what is known: why the callers beyond are not listed.</param>
public sealed record AsyncStackFrame(MethodBase? Method, string? File, int Line, bool IsAwaiting, string? Boundary = null);

/// <summary>
/// The logical stack of the current async call: the frames on the thread's stack, then the callers
/// awaiting it, innermost first, each with its method, file and line. Where a classic async method
/// or a Task stands between (the callers of a Task are not known), the trace ends with a boundary.
/// </summary>
public sealed class AsyncStackTrace
{
    private static readonly ConcurrentDictionary<Type, MethodBase?> s_methodOfContinuation = new();

    private AsyncStackTrace(IReadOnlyList<AsyncStackFrame> frames) => Frames = frames;

    public IReadOnlyList<AsyncStackFrame> Frames { get; }

    /// <summary>Captures the stack of the calling method, as <c>new StackTrace(true)</c> does, with the awaiting callers after it.</summary>
    [RequiresUnreferencedCode("Reads methods and their attributes by reflection, as StackTrace does.")]
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static AsyncStackTrace Capture()
    {
        var frames = new List<AsyncStackFrame>();
        bool reachedDispatcher = false, framesWithoutMethods = false;
        foreach (var frame in new StackTrace(1, fNeedFileInfo: true).GetFrames())
        {
            var method = frame.GetMethod();
            if (method?.DeclaringType == typeof(Dispatcher))
            {
                reachedDispatcher = true;
                break;
            }
            framesWithoutMethods |= method is null;
            if (method is null || IsHidden(method))
                continue;
            frames.Add(new AsyncStackFrame(Written(method), frame.GetFileName(), frame.GetFileLineNumber(), IsAwaiting: false));
        }
        // NativeAOT keeps no metadata for a stack frame's method, so neither the frames nor the
        // dispatcher can be told: say so, rather than return a list that looks complete.
        if (framesWithoutMethods && !reachedDispatcher && !RuntimeFeature.IsDynamicCodeSupported)
            frames.Add(new AsyncStackFrame(null, null, 0, IsAwaiting: false, "under NativeAOT stack frames do not name their methods, so the frames without one and the awaiting callers are not listed"));
        else if (reachedDispatcher && !Dispatcher.RecordsResumedFrames)
            frames.Add(new AsyncStackFrame(null, null, 0, IsAwaiting: true, "awaiting callers are listed only with the AppContext switch Async2.LogicalStackTraces on"));
        else if (reachedDispatcher && Dispatcher.Resumed is { } resumed)
            AddAwaitingCallers(frames, resumed.Next);
        return new AsyncStackTrace(frames);
    }

    [RequiresUnreferencedCode("Reads methods and their attributes by reflection.")]
    private static void AddAwaitingCallers(List<AsyncStackFrame> frames, Continuation? caller)
    {
        for (; caller is not null; caller = caller.Next)
        {
            var type = caller.GetType();
            if (MethodOf(type) is not { } method)
            {
                frames.Add(new AsyncStackFrame(null, null, 0, IsAwaiting: true, "awaited by a method that was not rewritten (through its Task)"));
                return;
            }
            var points = type.GetCustomAttribute<SuspensionPointsAttribute>();
            int line = points is not null && caller.State >= 1 && caller.State <= points.Lines.Length ? points.Lines[caller.State - 1] : 0;
            frames.Add(new AsyncStackFrame(method, points?.File, line, IsAwaiting: true));
        }
        // Past the outermost frame: the Task thunk that started the chain.
        frames.Add(new AsyncStackFrame(null, null, 0, IsAwaiting: true, "awaited as a Task: its awaiters are not known"));
    }

    /// <summary>
    /// The method whose [AsyncStateMachine] names <paramref name="continuation"/>'s class: the one it
    /// suspends. Not cached for a class of a collectible AssemblyLoadContext (a plugin's): the cache
    /// would keep the class, and so the context, from ever unloading.
    /// </summary>
    [RequiresUnreferencedCode("Reads methods and their attributes by reflection.")]
    private static MethodBase? MethodOf(Type continuation) => continuation.IsCollectible
        ? FindMethodOf(continuation)
        : s_methodOfContinuation.GetOrAdd(continuation, FindMethodOf);

    [RequiresUnreferencedCode("Reads methods and their attributes by reflection.")]
    private static MethodBase? FindMethodOf(Type continuation)
    {
        var definition = continuation.IsGenericType ? continuation.GetGenericTypeDefinition() : continuation;
        const BindingFlags declared = BindingFlags.DeclaredOnly | BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.Static;
        return definition.DeclaringType?.GetMethods(declared)
            .FirstOrDefault(method => method.GetCustomAttribute<AsyncStateMachineAttribute>()?.StateMachineType == definition);
    }

    /// <summary>A variant (a static method of a continuation class) as the method it was written as.</summary>
    [RequiresUnreferencedCode("Reads methods and their attributes by reflection.")]
    private static MethodBase Written(MethodBase method) =>
        method.DeclaringType is { } type && type.IsSubclassOf(typeof(Continuation)) && MethodOf(type) is { } written ? written : method;

    private static bool IsHidden(MethodBase method) =>
        method.IsDefined(typeof(StackTraceHiddenAttribute), inherit: false) || method.DeclaringType?.IsDefined(typeof(StackTraceHiddenAttribute), inherit: false) == true;

    /// <summary>One line per frame, as <c>StackTrace.ToString()</c> writes them; awaiting callers marked as such.</summary>
    public override string ToString()
    {
        var text = new StringBuilder();
        foreach (var frame in Frames)
        {
            if (frame.Boundary is { } boundary)
            {
                text.AppendLine($"   --- {boundary} ---");
                continue;
            }
            var method = frame.Method!;
            text.Append("   at ").Append(method.DeclaringType?.FullName?.Replace('+', '.')).Append('.').Append(method.Name)
                .Append('(').AppendJoin(", ", method.GetParameters().Select(p => $"{p.ParameterType.Name} {p.Name}")).Append(')');
            if (frame.File is not null && frame.Line > 0)
                text.Append($" in {frame.File}:line {frame.Line}");
            if (frame.IsAwaiting)
                text.Append(" (awaiting)");
            text.AppendLine();
        }
        return text.ToString();
    }
}

/// <summary>
/// Written by the rewriter on each continuation class: the source file of the method and, per
/// suspension point (state 1 first), the line of its await, so <see cref="AsyncStackTrace"/> can
/// say where a suspended caller waits without reading the PDB. Metadata only: nothing reads it
/// unless a trace is captured.
/// </summary>
[AttributeUsage(AttributeTargets.Class, Inherited = false)]
[System.ComponentModel.EditorBrowsable(System.ComponentModel.EditorBrowsableState.Never)]
public sealed class SuspensionPointsAttribute(string? file, int[] lines) : Attribute
{
    public string? File { get; } = file;
    public int[] Lines { get; } = lines;
}
