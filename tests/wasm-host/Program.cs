// The wasm host's one job: load program K from the page's server, run its entry point (with the
// arguments after K), post back what it printed. One page load runs one program, so each gets a fresh runtime (statics,
// event handlers, contexts) as a process gets on the desktop. Its transcript has the shape of
// ProgramRunner.Transcript's (tests/Async2.Tests/Corpus/ProgramBuilder.cs): stdout, then the
// exit code, then the first line of stderr when the run failed; WasmRunner.cs reads it.
using System;
using System.IO;
using System.Linq;
using System.Net.Http;
using System.Reflection;
using System.Runtime.InteropServices.JavaScript;
using System.Threading.Tasks;

static class Program
{
    static async Task Main(string[] args)
    {
        var run = args[0];
        using var http = new HttpClient { BaseAddress = new Uri(JSHost.GlobalThis.GetPropertyAsJSObject("location")!.GetPropertyAsString("href")!) };
        var assembly = Assembly.Load(await http.GetByteArrayAsync($"/program/{run}.dll"), await http.GetByteArrayAsync($"/program/{run}.pdb"));

        var stdout = new StringWriter();
        var stderr = new StringWriter();
        var (realOut, realErr) = (Console.Out, Console.Error);
        Console.SetOut(stdout);
        Console.SetError(stderr);
        int exitCode;
        try
        {
            exitCode = await RunEntryPoint(assembly, args[1..]);
        }
        catch (Exception e)
        {
            // As the desktop host's report of an unhandled exception, whose first line the transcript keeps.
            stderr.WriteLine($"Unhandled exception. {e.GetType()}: {e.Message}");
            exitCode = 134;
        }
        Console.SetOut(realOut);
        Console.SetError(realErr);

        var transcript = stdout.ToString().ReplaceLineEndings("\n") + $"[exit code {exitCode}]";
        if (exitCode != 0 && stderr.ToString().Length > 0)
            transcript += $"\n[stderr first line] {stderr.ToString().ReplaceLineEndings("\n").Split('\n')[0]}";
        (await http.PostAsync($"/result/{run}", new StringContent(transcript))).EnsureSuccessStatusCode();
    }

    /// <summary>
    /// Runs the program's Main. An async Main's compiler-made entry point blocks on its Task, which
    /// the browser's one thread cannot do, so the async method itself is called and awaited.
    /// </summary>
    static async Task<int> RunEntryPoint(Assembly assembly, string[] args)
    {
        var entry = assembly.EntryPoint!;
        var parameters = entry.GetParameters().Select(p => p.ParameterType).ToArray();
        var main = entry.Name == "<Main>"
            ? entry.DeclaringType!.GetMethods(BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic)
                .Single(m => m.Name is "Main" or "<Main>$" && m.GetParameters().Select(p => p.ParameterType).SequenceEqual(parameters))
            : entry;
        var result = main.Invoke(null, BindingFlags.DoNotWrapExceptions, null, parameters.Length == 0 ? [] : [args], null);
        switch (result)
        {
            case Task<int> withCode:
                return await withCode;
            case Task task:
                await task;
                return 0;
            case int code:
                return code;
            default:
                return 0;
        }
    }
}
