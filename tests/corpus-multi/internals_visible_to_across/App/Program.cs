using System;
using System.Linq;
using System.Reflection;
using System.Threading.Tasks;
using Core;

sealed class MyService : Service
{
    protected internal override async Task<string> Hook(int x) => "app(" + await base.Hook(x) + ") shared=" + await Shared(x);
    internal override async Task<int> Virt(int x) => await base.Virt(x) * 2;
}

sealed class Job : IJob
{
    public async Task<int> Run(int x) { await Pause.Maybe(); return x * 10; }
}

static class Program
{
    static async Task Main()
    {
        foreach (var suspend in new[] { false, true })
        {
            Pause.Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine("before compute");
            Console.WriteLine(await Secrets.Compute(4) + " calls=" + Secrets.Calls);
            var m = new Meter();
            Console.WriteLine("before read");
            Console.WriteLine(await m.Read() + " " + m.V);
            Console.WriteLine(await Gen<int>.Echo(1));
            Console.WriteLine(await Gen<string>.Echo("s"));
            var s = new MyService();
            Console.WriteLine(await s.InternalOp(2));
            Console.WriteLine(await s.Hook(3));
            Console.WriteLine(await s.Virt(3));
            Service plain = new Service();
            Console.WriteLine(await plain.Virt(3));
            IJob job = new Job();
            Console.WriteLine(await job.Twice(2));
            Console.WriteLine(await Service.Drive(s, job, 5));
        }
        Console.WriteLine("non-nested types: " + string.Join(", ", typeof(Program).Assembly.GetTypes().Where(t => !t.IsNested && !t.IsDefined(typeof(System.Runtime.CompilerServices.CompilerGeneratedAttribute))).Select(t => t.FullName).Order(StringComparer.Ordinal)));
    }
}
