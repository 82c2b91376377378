using System.CommandLine;

namespace Async2.Cli;

/// <summary>
/// A file path argument that refuses values looking like options. System.CommandLine gives a
/// token that names no option to the next open argument, so without this
/// <c>async2 rewrite --frobnicate -o out.dll</c> would look for a file named "--frobnicate" rather
/// than report the unknown option. Path arguments and options also refuse an empty path (a shell
/// variable never set), which the path APIs would reject with an exception.
/// </summary>
internal static class PathArgument
{
    public static Argument<string> Create(string name, string description)
    {
        var argument = new Argument<string>(name) { Description = description };
        argument.Validators.Add(result =>
        {
            if (result.Tokens is [{ Value: ['-', _, ..] value }])
                result.AddError($"Unrecognized option '{value}' (a file whose name starts with '-' is written ./{value}).");
            else if (result.Tokens is [{ Value: "" }])
                result.AddError($"The path given for <{name}> is empty.");
        });
        return argument;
    }

    /// <summary>Has <paramref name="option"/> refuse an empty path.</summary>
    public static Option<T> RefusingEmpty<T>(Option<T> option)
    {
        option.Validators.Add(result =>
        {
            if (result.Tokens is [{ Value: "" }])
                result.AddError($"The path given for {option.Name} is empty.");
        });
        return option;
    }
}
