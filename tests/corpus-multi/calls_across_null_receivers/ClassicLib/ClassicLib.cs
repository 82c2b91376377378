using System.Threading.Tasks;

namespace Nulls;

public class ClassicService : Service
{
    public override async Task<int> Virtual(int x) { Log.Add("Classic.Virtual ran"); await Log.Maybe(); return x + 1000; }
    public async Task<int> Own(int x) { Log.Add("Classic.Own ran"); await Log.Maybe(); return x - 1; }
}

public sealed class Square : Shape
{
    public override async Task<double> Area() { await Log.Maybe(); return 4; }
}
