using System.Threading.Tasks;
namespace PA;
public class Base
{
    public static bool Suspend;
    public virtual async Task<string> NameAsync()
    {
        if (Suspend) await Task.Yield();
        return "base";
    }
}
public class DerivedSame : Base
{
    public int Field;
    public override async Task<string> NameAsync()
    {
        if (Suspend) await Task.Yield();
        return "derived-same";
    }
}
public static class Runner
{
    public static async Task<string> RunAsync(Base b) => await b.NameAsync();
}
