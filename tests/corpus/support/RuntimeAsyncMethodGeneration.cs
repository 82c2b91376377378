// Compiled into every corpus program: Roslyn's per-method switch between the two async models.
// In the runtime-async build, [RuntimeAsyncMethodGeneration(false)] makes Roslyn compile that method
// as a classic state machine, so one program can mix rewritten methods with classic overrides and
// implementations (seed 002's Base/Derived/MoreDerived). The classic build ignores it.
namespace System.Runtime.CompilerServices;

[AttributeUsage(AttributeTargets.Method)]
sealed class RuntimeAsyncMethodGenerationAttribute(bool runtimeAsync) : Attribute
{
    public bool RuntimeAsync { get; } = runtimeAsync;
}
