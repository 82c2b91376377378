// Calls into the other assembly's annotated async methods: generic, static, virtual, interface
// and a generic class's.
using System;
using System.Threading.Tasks;
using Annotated;

public class Row { public int Id { get; set; } public string Name { get; set; } = ""; }
public class Tool { public void Cut() { } public void Fold() { } }

static class Program
{
    static async Task Main()
    {
        foreach (bool suspend in new[] { false, true })
        {
            Reflect.Suspend = suspend;
            Console.WriteLine($"-- suspend={suspend}");
            Console.WriteLine(await Reflect.PropertiesOf<Row>());
            Console.WriteLine(await Reflect.MethodsOf(typeof(Tool)));
            Describer describer = new Describer();
            IDescriber asInterface = describer;
            Console.WriteLine(await describer.Describe(typeof(Tool)));
            Console.WriteLine(await asInterface.Describe(typeof(Row)));
            Console.WriteLine(await new Box<Row>().Shape());
        }
    }
}
