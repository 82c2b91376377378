using System.Threading.Tasks;

namespace Contracts;

public interface IPlugin
{
    Task<string> RunAsync(int n);
}

public static class Shared
{
    public static async Task<int> TwiceAsync(int n)
    {
        await Task.Yield();
        return n * 2;
    }

    public static async Task<int> TwiceAtOnceAsync(int n) => await Task.FromResult(n * 2);
}

public class Greeter
{
    public virtual async Task<string> GreetAsync(string name)
    {
        await Task.Yield();
        return "hello " + name;
    }
}
