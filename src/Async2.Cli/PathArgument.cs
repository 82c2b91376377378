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
                result.AddError($"Unrecognized option '{value}' (a file whose name starts with '-' is written ./{value}, or after --).");
            else if (result.Tokens is [{ Value: "" }])
                result.AddError($"The path given for <{name}> is empty.");
        });
        return argument;
    }

    /// <summary>
    /// <c>--</c> ends the options, as POSIX tools have it: a value after it that starts with '-' is
    /// a file of that name, passed on as <c>./name</c> so that the validator above takes it as the path
    /// it is. Not for <c>run</c>, whose <c>--</c> and what follows are the app's.
    /// </summary>
    public static string[] EndingOptionsAtDoubleDash(string[] args)
    {
        var end = Array.IndexOf(args, "--");
        if (end < 0 || args is [RunCommand.Name, ..])
            return args;
        return [.. args[..(end + 1)], .. args[(end + 1)..].Select(value => value.StartsWith('-') ? "./" + value : value)];
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
