using System.Threading.Tasks;
namespace PB;
public class DerivedOther : PA.Base
{
    public int Field;
    public override async Task<string> NameAsync()
    {
        if (Suspend) await Task.Yield();
        return "derived-other";
    }
}
