// top-level statements with await that return an int exit code (3), reading args (empty) and
// awaiting async methods before returning.
using System;
using System.Threading.Tasks;

int code = 1;
foreach (var suspend in new[] { false, true })
{
    Console.WriteLine($"-- suspend={suspend}");
    code += await Step(args.Length + 1, suspend);
    Console.WriteLine($"code={code}");
}
return code;

static async Task<int> Step(int v, bool suspend)
{
    if (suspend) await Task.Yield();
    return v;
}
