// A method type parameter named as its class's (CS0693): the conditional's arms are a D1<the
// method's T> and a Base<the class's T>, which only their full names make look alike.
using System.Threading.Tasks;

class Base<X> { }
class D1<X> : Base<X> { }

class Outer<T>
{
    public Base<T> Field = new();
    static async Task<int> V(int v) { await Task.Yield(); return v; }
    static int Check(object o, int k) => o is Base<T> ? k : -k;
#pragma warning disable CS0693
    public async Task<int> M<T>(bool f) => Check(f ? new D1<T>() : (object)Field, await V(1));
#pragma warning restore CS0693
}

static class Program
{
    static async Task Main() => System.Console.WriteLine(await new Outer<int>().M<long>(true));
}
