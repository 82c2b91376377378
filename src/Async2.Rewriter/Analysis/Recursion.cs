using Mono.Cecil;
using Mono.Cecil.Cil;

namespace Async2.Rewriter.Analysis;

/// <summary>
/// Which rewritten methods can reach themselves through calls to other rewritten methods: only
/// those can build an async call chain deep enough to need the stack guard. Edges are every call
/// whose target is rewritten or has an interface entry (a virtual or interface call also reaches
/// each rewritten method of the same name and arity, a superset of its implementations); the recursive methods are those on a cycle, found as
/// the strongly connected components of that graph (Tarjan's algorithm, iterative).
/// </summary>
internal static class Recursion
{
    public static IReadOnlySet<MethodDefinition> Find(IReadOnlyCollection<MethodDefinition> methods, Func<Instruction, MethodDefinition?> callTarget)
    {
        var byShape = methods.ToLookup(m => (SimpleName(m.Name), m.Parameters.Count));
        var callees = methods.ToDictionary(m => m, m => Callees(m, callTarget, byShape).ToList());

        var recursive = new HashSet<MethodDefinition>();
        var index = new Dictionary<MethodDefinition, int>();
        var lowLink = new Dictionary<MethodDefinition, int>();
        var onStack = new HashSet<MethodDefinition>();
        var component = new Stack<MethodDefinition>();
        foreach (var root in methods)
        {
            if (index.ContainsKey(root))
                continue;
            var work = new Stack<(MethodDefinition Method, int NextEdge)>();
            Visit(root);
            while (work.Count > 0)
            {
                var (method, next) = work.Pop();
                var edges = callees[method];
                if (next < edges.Count)
                {
                    work.Push((method, next + 1));
                    var callee = edges[next];
                    if (!index.ContainsKey(callee))
                        Visit(callee);
                    else if (onStack.Contains(callee))
                        lowLink[method] = Math.Min(lowLink[method], index[callee]);
                    continue;
                }
                if (work.Count > 0)
                    lowLink[work.Peek().Method] = Math.Min(lowLink[work.Peek().Method], lowLink[method]);
                if (lowLink[method] != index[method])
                    continue;
                var members = new List<MethodDefinition>();
                MethodDefinition member;
                do
                {
                    member = component.Pop();
                    onStack.Remove(member);
                    members.Add(member);
                } while (member != method);
                if (members.Count > 1 || edges.Contains(method))
                    recursive.UnionWith(members);
            }

            void Visit(MethodDefinition method)
            {
                index[method] = lowLink[method] = index.Count;
                component.Push(method);
                onStack.Add(method);
                work.Push((method, 0));
            }
        }
        return recursive;
    }

    /// <summary>The name without an explicit implementation's interface prefix (<c>NS.IRepo.GetAsync</c> → <c>GetAsync</c>).</summary>
    private static string SimpleName(string name) => name[(name.LastIndexOf('.') + 1)..];

    private static IEnumerable<MethodDefinition> Callees(MethodDefinition method, Func<Instruction, MethodDefinition?> callTarget,
        ILookup<(string, int), MethodDefinition> byShape)
    {
        foreach (var instruction in method.Body.Instructions)
        {
            // Calls into other assemblies close no cycle: assembly references do not go round.
            if (callTarget(instruction) is not { } callee || callee.Module != method.Module)
                continue;
            if (instruction.OpCode.Code == Code.Callvirt && (callee.IsVirtual || callee.DeclaringType.IsInterface))
                foreach (var sameShape in byShape[(SimpleName(callee.Name), callee.Parameters.Count)])
                    yield return sameShape;
            else
                yield return callee;
        }
    }
}
