using System.Diagnostics;
using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using System.Reflection.PortableExecutable;
using Async2.Tests.Corpus;
using Xunit;
using Xunit.Abstractions;
using static Async2.Tests.Cli.CliRun;

namespace Async2.Tests.Cli;

/// <summary>
/// Input a user can get wrong, given to <c>async2 rewrite</c>, <c>run</c> and <c>verify</c>: each
/// gets a message saying what is wrong with which file and what to do, a non-zero exit code, no
/// unhandled exception, no output written, and the input left byte for byte as it was.
/// </summary>
public sealed class BadInputTests(ITestOutputHelper output) : IDisposable
{
    private readonly ITestOutputHelper _output = output;
    private readonly string _folder = Directory.CreateTempSubdirectory("async2-bad-input-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    public static TheoryData<string, string> NotRewritable() => new()
    {
        { "empty", "the file is empty" },
        { "text", "it is not a .NET assembly" },
        { "truncated", "it is truncated: its " },
        { "native", "it is not a .NET assembly" },
        { "reference", "it is a reference assembly" },
        // Rewrite gave an ASYNC2103 per AsyncHelpers method, verify called it damaged.
        { "core-library", "it is the runtime's core library (System.Private.CoreLib, which defines System.Object)" },
    };

    /// <summary>Damage the headers do not show, which the rewrite finds reading the metadata (run and verify look at the headers first).</summary>
    public static TheoryData<string, string> DamagedInside() => new()
    {
        { "attribute-without-constructor", "it is damaged: a custom attribute of " },
        // Cecil fails in its own way decoding it.
        { "invalid-opcode", "it is damaged and cannot be read: Cecil, which reads it, stopped with IndexOutOfRangeException" },
        // Member references' signatures are decoded before Cecil reads them (it failed with NotImplementedException).
        { "invalid-member-signature", "it is damaged: the signature of member reference 0x0A" },
        // Cecil made the generic method as many type parameters as the number said: minutes of work.
        { "generic-parameter-past-limit", "names generic parameter 536,870,911, past the 65,535 metadata can number" },
        // Cecil leaves the operand null, and the analysis failed on it (ASYNC2900, "a bug in Async2").
        { "call-naming-nothing", "it is damaged: the call at IL_" },
        { "empty-pdb", "its symbols beside it, " },
        { "truncated-pdb", "its symbols beside it, " },
        // Cecil's SymbolsNotMatchingException was taken for damage: "its debug symbols are damaged ... Rebuild it or copy it again".
        { "other-builds-pdb", "its .pdb does not belong to it (the build is stale?). Rebuild, or remove the .pdb." },
    };

    [Theory]
    [MemberData(nameof(NotRewritable))]
    [MemberData(nameof(DamagedInside))]
    public void Rewrite_refuses_it_and_writes_nothing(string kind, string message)
    {
        var input = Make(kind);
        var before = Fingerprint(input);
        var output = Path.Combine(_folder, "out", "Out.dll");

        var (exitCode, stdout, stderr) = RunAsync2("rewrite", input, "-o", output);

        Assert.Equal(1, exitCode);
        Assert.Contains($"error ASYNC2001: {input}: ", stderr);
        Assert.Contains(message, stderr);
        Assert.DoesNotContain("   at ", stderr + stdout); // no stack trace
        Assert.Equal(before, Fingerprint(input));
        Assert.False(Directory.Exists(Path.GetDirectoryName(output)) && Directory.EnumerateFileSystemEntries(Path.GetDirectoryName(output)!).Any(),
            "something was written to the output folder");
    }

    [Theory]
    [MemberData(nameof(NotRewritable))]
    public void Run_refuses_it(string kind, string message)
    {
        var input = Make(kind);
        var before = Fingerprint(input);

        var (exitCode, stdout, stderr) = ProgramRunner.Run(TestEnvironment.DotnetHost, [TestEnvironment.CliPath, "run", input],
            environment: new Dictionary<string, string?> { ["ASYNC2_CACHE"] = Path.Combine(_folder, "cache") });

        Assert.Equal(1, exitCode);
        Assert.DoesNotContain("   at ", stderr + stdout);
        Assert.Contains($"cannot run '{input}'", stderr);
        Assert.Contains(message, stderr);
        Assert.Equal(before, Fingerprint(input));
    }

    [Theory]
    [MemberData(nameof(NotRewritable))]
    public void Verify_refuses_it(string kind, string message)
    {
        var input = Make(kind);
        var (exitCode, stdout, stderr) = RunAsync2("verify", input);
        Assert.Equal(1, exitCode);
        Assert.Contains($"cannot verify '{input}'", stderr);
        Assert.Contains(message, stderr);
        Assert.DoesNotContain("   at ", stderr + stdout);
    }

    [Fact]
    public void Verify_of_an_assembly_not_rewritten_yet_says_to_rewrite_it_first()
    {
        // Each type was "refused" with a bare TypeLoadException ("the format is invalid").
        var (exitCode, stdout, stderr) = RunAsync2("verify", Fixture().RuntimeAsync);
        Assert.Equal(1, exitCode);
        Assert.Contains($"error ASYNC2001: {Fixture().RuntimeAsync}: it has runtime-async methods that were not rewritten", stderr);
        Assert.Contains("Rewrite it first (async2 rewrite <in.dll> -o <out.dll>) and verify the output.", stderr);
        Assert.DoesNotContain("ASYNC2201", stderr + stdout);
    }

    [Fact]
    public void Verify_of_an_assembly_the_runtime_refuses_to_load_says_it_is_damaged()
    {
        // Damage outside the metadata, which the headers' check does not read: a stack trace (BadImageFormatException) before.
        var input = Path.Combine(_folder, "Unloadable.dll");
        File.WriteAllBytes(input, WithImportNamePointingNowhere(File.ReadAllBytes(Fixture().Rewritten)));
        File.Copy(Path.Combine(Path.GetDirectoryName(Fixture().Rewritten)!, "Async2.Runtime.dll"), Path.Combine(_folder, "Async2.Runtime.dll"));

        var (exitCode, stdout, stderr) = RunAsync2("verify", input);

        Assert.Equal(1, exitCode);
        Assert.Contains($"error ASYNC2001: {input}: the runtime refuses to load it, so it is damaged (BadImageFormatException", stderr);
        Assert.DoesNotContain("   at ", stderr + stdout);
    }

    [Fact]
    public void Rewrite_of_an_already_rewritten_assembly_says_so_and_writes_nothing()
    {
        var rewritten = Fixture().Rewritten;
        var before = Fingerprint(rewritten);
        var output = Path.Combine(_folder, "again", "Throwing.dll");

        var (exitCode, stdout, stderr) = RunAsync2("rewrite", rewritten, "-o", output);

        Assert.True(exitCode == 0, stderr);
        Assert.Contains("already rewritten by Async2", stdout);
        Assert.False(File.Exists(output));
        Assert.Equal(before, Fingerprint(rewritten));
    }

    [Fact]
    public void Rewrite_that_needs_a_missing_reference_names_it_and_rewrites_once_it_is_there()
    {
        // A struct of another assembly kept on the evaluation stack across an await: only its
        // definition says it is a value type, so its assembly must be found.
        var library = ProgramBuilder.Compile("MissingLibrary", [Write("Money.cs", "namespace L; public struct Money { public int Cents; public Money(int c) { Cents = c; } }")],
            runtimeAsync: false, library: true);
        var program = ProgramBuilder.Compile("UsesMissingLibrary", [Write("Program.cs", """
            using L;
            static async System.Threading.Tasks.Task<int> Add(int x) { var m = new Money(x); await System.Threading.Tasks.Task.Yield(); return m.Cents + 1; }
            System.Console.WriteLine(await Add(41));
            """)], runtimeAsync: true, references: [library]);
        var input = CopiedAlone(program, "app");
        var output = Path.Combine(_folder, "out", Path.GetFileName(program));

        var missing = RunAsync2("rewrite", input, "-o", output);

        Assert.Equal(1, missing.ExitCode);
        Assert.Contains("error ASYNC2004", missing.Stderr);
        Assert.Contains("L.Money is on the evaluation stack across this await, and its assembly (MissingLibrary) cannot be found", missing.Stderr);
        Assert.False(File.Exists(output));

        File.Copy(library, Path.Combine(Path.GetDirectoryName(input)!, Path.GetFileName(library)));
        var found = RunAsync2("rewrite", input, "-o", output);

        Assert.True(found.ExitCode == 0, found.Stderr);
        Assert.Equal("42\n[exit code 0]", TranscriptBeside(output, program, library));
    }

    [Fact]
    public void Rewrite_and_inspect_of_an_assembly_whose_attributes_need_a_missing_one_name_it_and_take_it_as_a_reference()
    {
        // Reading an assembly decodes its attributes, and an enum argument needs the enum's
        // assembly: without it, rewrite and inspect crashed with Cecil's AssemblyResolutionException.
        var library = ProgramBuilder.Compile("TagLibrary", [Write("Tag.cs", """
            namespace L;
            public enum Level { Low, High }
            [System.AttributeUsage(System.AttributeTargets.Method)]
            public sealed class TagAttribute : System.Attribute { public Level Level { get; set; } }
            """)], runtimeAsync: false, library: true);
        var program = ProgramBuilder.Compile("UsesTagLibrary", [Write("Tagged.cs", """
            using L;
            System.Console.WriteLine(await Tagged.TwiceAsync(21));
            static class Tagged
            {
                [Tag(Level = Level.High)]
                public static async System.Threading.Tasks.Task<int> TwiceAsync(int x) { await System.Threading.Tasks.Task.Yield(); return x * 2; }
            }
            """)], runtimeAsync: true, references: [library]);
        var input = CopiedAlone(program, "tagged");
        var output = Path.Combine(_folder, "tagged-out", Path.GetFileName(program));
        const string missingMessage = "its attributes name a type of TagLibrary, and TagLibrary.dll is neither beside it nor among the references given";

        var missing = RunAsync2("rewrite", input, "-o", output);
        var inspectMissing = RunAsync2("inspect", input);

        Assert.Equal(1, missing.ExitCode);
        Assert.Contains("error ASYNC2004", missing.Stderr);
        Assert.Contains(missingMessage, missing.Stderr);
        Assert.False(File.Exists(output));
        Assert.Equal(1, inspectMissing.ExitCode);
        Assert.Contains(missingMessage, inspectMissing.Stderr);
        Assert.Contains("async2: 1 problem(s).", inspectMissing.Stderr); // inspect writes nothing in any case: no "nothing was written"

        var inspected = RunAsync2("inspect", input, "--reference", Path.GetDirectoryName(library)!);
        var rewritten = RunAsync2("rewrite", input, "-o", output, "-r", library);

        Assert.True(inspected.ExitCode == 0, inspected.Stderr);
        Assert.Contains("method Tagged::TwiceAsync: rewritten", inspected.Stdout);
        Assert.True(rewritten.ExitCode == 0, rewritten.Stderr);
        Assert.Equal("42\n[exit code 0]", TranscriptBeside(output, program, library));
    }

    [Fact]
    public void A_reference_that_is_no_assembly_is_named_as_such_and_not_the_input()
    {
        // A file given with -r was never looked at unless the rewrite needed it; when it did, Cecil's
        // BadImageFormatException left the resolver and the input was reported as "not a .NET assembly".
        var input = Fixture().RuntimeAsync;
        var output = Path.Combine(_folder, "reference-out", Path.GetFileName(input));
        var notes = Path.Combine(_folder, "notes.dll");
        File.WriteAllText(notes, "not an assembly");
        var folder = Directory.CreateDirectory(Path.Combine(_folder, "refs")).FullName;
        var fakeRuntime = Path.Combine(folder, "System.Runtime.dll");
        File.WriteAllText(fakeRuntime, "not an assembly either");

        var named = RunAsync2("rewrite", input, "-o", output, "-r", notes);
        var inFolder = RunAsync2("rewrite", input, "-o", output, "-r", folder);

        Assert.Equal(1, named.ExitCode);
        Assert.Contains($"error: --reference '{notes}' is not a .NET assembly.", named.Stderr);
        Assert.Equal(1, inFolder.ExitCode);
        Assert.Contains($"error ASYNC2004: {fakeRuntime}: the rewrite needs it as System.Runtime, given among the references, but it is not a .NET assembly", inFolder.Stderr);
        Assert.DoesNotContain($"{input}: it is not a .NET assembly", inFolder.Stderr);
        Assert.False(File.Exists(output));
    }

    [Fact]
    public void Rewrite_and_inspect_find_an_aspnet_core_enum_an_attribute_names_in_the_shared_framework()
    {
        // `dotnet new mvc`'s HomeController.Error carries [ResponseCache(Location = ResponseCacheLocation.None)],
        // an enum of Microsoft.AspNetCore.Mvc.Core: the shared framework's, never beside the app.
        // Only Microsoft.NETCore.App's folder was searched: rewrite, inspect and run failed with ASYNC2004.
        var aspNetCore = Async2.TestSupport.SdkTools.ReferenceAssemblies(TestEnvironment.DotnetRoot, "Microsoft.AspNetCore.App.Ref");
        var program = ProgramBuilder.Compile("CachedController", [Write("CachedController.cs", """
            using Microsoft.AspNetCore.Mvc;
            System.Console.WriteLine(await Home.ErrorAsync(21));
            static class Home
            {
                [ResponseCache(Duration = 0, Location = ResponseCacheLocation.None, NoStore = true)]
                public static async System.Threading.Tasks.Task<int> ErrorAsync(int x) { await System.Threading.Tasks.Task.Yield(); return x * 2; }
            }
            """)], runtimeAsync: true, references: aspNetCore);
        var input = CopiedAlone(program, "mvc");
        var output = Path.Combine(_folder, "mvc-out", Path.GetFileName(program));

        var rewritten = RunAsync2("rewrite", input, "-o", output);
        var inspected = RunAsync2("inspect", input);

        Assert.True(rewritten.ExitCode == 0, rewritten.Stderr);
        Assert.True(File.Exists(output));
        Assert.True(inspected.ExitCode == 0, inspected.Stderr);
        Assert.Contains("method Home::ErrorAsync: rewritten", inspected.Stdout);
    }

    [Fact]
    public void Inspect_reads_a_reference_given_with_reference_before_a_stale_one_beside_the_input_as_the_rewrite_does()
    {
        // The program was compiled against the library given with --reference (a Money of one int);
        // a stale build beside it has a Money of four longs. The rewrite reads the --reference one;
        // inspect read the stale one, and sized the continuation holding a Money by it.
        var compiledAgainst = ProgramBuilder.Compile("MoneyLibrary", [Write("MoneySmall.cs", "namespace L; public struct Money { public int Cents; public Money(int c) { Cents = c; } }")],
            runtimeAsync: false, library: true);
        var stale = ProgramBuilder.Compile("MoneyLibrary", [Write("MoneyLarge.cs", "namespace L; public struct Money { public long Cents, B, C, D; public Money(int c) { Cents = c; B = C = D = 0; } }")],
            runtimeAsync: false, library: true);
        var program = ProgramBuilder.Compile("KeepsMoney", [Write("KeepsMoney.cs", """
            using L;
            static async System.Threading.Tasks.Task<int> Add(int x) { var m = new Money(x); await System.Threading.Tasks.Task.Yield(); return m.Cents + 1; }
            System.Console.WriteLine(await Add(41));
            """)], runtimeAsync: true, references: [compiledAgainst]);
        var besideStale = CopiedAlone(program, "beside-stale");
        File.Copy(stale, Path.Combine(Path.GetDirectoryName(besideStale)!, Path.GetFileName(stale)));
        var besideRight = CopiedAlone(program, "beside-right");
        File.Copy(compiledAgainst, Path.Combine(Path.GetDirectoryName(besideRight)!, Path.GetFileName(compiledAgainst)));

        var referenced = RunAsync2("inspect", besideStale, "--reference", compiledAgainst);
        var beside = RunAsync2("inspect", besideRight);

        Assert.True(referenced.ExitCode == 0, referenced.Stderr);
        Assert.True(beside.ExitCode == 0, beside.Stderr);
        static string ContinuationSize(string report) => System.Text.RegularExpressions.Regex.Match(report, @"g__Add\|0_0: rewritten, .*, continuation \d+ B").Value;
        Assert.NotEqual("", ContinuationSize(beside.Stdout));
        Assert.Equal(ContinuationSize(beside.Stdout), ContinuationSize(referenced.Stdout));
    }

    [Fact]
    public void Rewrite_of_an_await_on_another_assemblys_task_does_not_need_that_assembly()
    {
        // Awaiting a task a library method returns needs nothing from the library: the await is
        // bridged. Saying why it is not a direct call once looked the method up, and crashed
        // when the library was not beside the input (an assembly in obj/, say).
        var library = ProgramBuilder.Compile("AbsentLibrary", [Write("Rates.cs", """
            namespace L;
            public static class Rates { public static async System.Threading.Tasks.Task<int> GetAsync(int x) { await System.Threading.Tasks.Task.Yield(); return x * 2; } }
            """)], runtimeAsync: false, library: true);
        var program = ProgramBuilder.Compile("UsesAbsentLibrary", [Write("Program.cs", """
            static async System.Threading.Tasks.Task<int> Twice(int x) => await L.Rates.GetAsync(x) + 0;
            System.Console.WriteLine(await Twice(21));
            """)], runtimeAsync: true, references: [library]);
        var input = CopiedAlone(program, "alone");
        var output = Path.Combine(_folder, "alone-out", Path.GetFileName(program));

        var rewrite = RunAsync2("rewrite", input, "-o", output);

        Assert.True(rewrite.ExitCode == 0, rewrite.Stderr);
        Assert.Equal("42\n[exit code 0]", TranscriptBeside(output, program, library));
    }

    /// <summary>A copy of <paramref name="program"/> in a folder of its own, without the assemblies it references.</summary>
    private string CopiedAlone(string program, string folderName)
    {
        var folder = Path.Combine(_folder, folderName);
        Directory.CreateDirectory(folder);
        var copy = Path.Combine(folder, Path.GetFileName(program));
        File.Copy(program, copy);
        return copy;
    }

    /// <summary>Runs the rewritten <paramref name="output"/> with <paramref name="library"/> and the program's runtimeconfig beside it.</summary>
    private static string TranscriptBeside(string output, string program, string library)
    {
        File.Copy(library, Path.Combine(Path.GetDirectoryName(output)!, Path.GetFileName(library)));
        File.Copy(ProgramBuilder.RuntimeConfigOf(program), ProgramBuilder.RuntimeConfigOf(output));
        return ProgramRunner.Transcript(output, runtimeAsync: false);
    }

    [Fact]
    public void Rewrite_onto_a_full_disk_reports_it_and_leaves_nothing_behind()
    {
        var disk = Path.Combine(_folder, "full");
        Directory.CreateDirectory(disk);
        if (!Mount(disk, "16k", out var why))
        {
            // A 16 KB tmpfs needs root (this project's machines and CI run as root). Elsewhere the
            // case goes unchecked, and says so, rather than failing for want of a disk to fill.
            _output.WriteLine($"not checked: cannot mount a small tmpfs here ({why})");
            return;
        }
        try
        {
            var input = Fixture().RuntimeAsync;
            var before = Fingerprint(input);
            var (exitCode, stdout, stderr) = RunAsync2("rewrite", input, "-o", Path.Combine(disk, "Throwing.dll"));

            Assert.Equal(1, exitCode);
            Assert.Contains("error ASYNC2003", stderr);
            Assert.Contains("No space left on device", stderr);
            Assert.DoesNotContain("   at ", stderr + stdout);
            Assert.Empty(Directory.EnumerateFileSystemEntries(disk));
            Assert.Equal(before, Fingerprint(input));
        }
        finally
        {
            Process.Start("umount", [disk])!.WaitForExit();
        }
    }

    private static bool Mount(string folder, string size, out string why)
    {
        var (exitCode, stdout, stderr) = ProgramRunner.Run("mount", ["-t", "tmpfs", "-o", $"size={size}", "tmpfs", folder]);
        why = (stdout + stderr).Trim();
        return exitCode == 0;
    }

    /// <summary>A file of the given kind, in the test's folder.</summary>
    private string Make(string kind)
    {
        var path = Path.Combine(_folder, kind + ".dll");
        switch (kind)
        {
            case "empty":
                File.WriteAllBytes(path, []);
                break;
            case "text":
                File.WriteAllText(path, "this is not an assembly\n");
                break;
            case "truncated":
                var whole = File.ReadAllBytes(Fixture().RuntimeAsync);
                File.WriteAllBytes(path, whole[..(whole.Length * 3 / 4)]);
                break;
            case "native":
                var hostfxr = Directory.EnumerateFiles(Path.Combine(TestEnvironment.DotnetRoot, "host", "fxr"), "*hostfxr*", SearchOption.AllDirectories).First();
                File.Copy(hostfxr, path);
                break;
            case "core-library":
                File.Copy(typeof(object).Assembly.Location, path);
                break;
            case "reference":
                File.Copy(TestEnvironment.ReferenceAssemblies.First(p => Path.GetFileName(p) == "System.Runtime.dll"), path);
                break;
            case "empty-pdb" or "truncated-pdb":
                File.Copy(Fixture().RuntimeAsync, path);
                var pdb = File.ReadAllBytes(Path.ChangeExtension(Fixture().RuntimeAsync, ".pdb"));
                File.WriteAllBytes(Path.ChangeExtension(path, ".pdb"), kind == "empty-pdb" ? [] : pdb[..(pdb.Length / 3)]);
                break;
            case "other-builds-pdb":
                File.Copy(Fixture().RuntimeAsync, path);
                File.Copy(Path.ChangeExtension(Fixture().Classic, ".pdb"), Path.ChangeExtension(path, ".pdb"));
                break;
            case "attribute-without-constructor":
                File.WriteAllBytes(path, WithFirstAttributeConstructorPointingNowhere(File.ReadAllBytes(Fixture().RuntimeAsync)));
                break;
            case "invalid-opcode":
                File.WriteAllBytes(path, WithInvalidOpcodeInAsyncMethod(File.ReadAllBytes(Fixture().RuntimeAsync)));
                break;
            case "invalid-member-signature":
                File.WriteAllBytes(path, WithConstructorReferenceReturningNoType(File.ReadAllBytes(Fixture().RuntimeAsync)));
                break;
            case "generic-parameter-past-limit":
                File.WriteAllBytes(path, WithGenericReturnNumberPastLimit(File.ReadAllBytes(Fixture().RuntimeAsync)));
                break;
            case "call-naming-nothing":
                File.WriteAllBytes(path, WithCallNamingNoMember(File.ReadAllBytes(Fixture().RuntimeAsync)));
                break;
        }
        return path;
    }

    /// <summary>The image with its first CustomAttribute row's constructor pointing at MethodDef row 0, which is no row.</summary>
    private static byte[] WithFirstAttributeConstructorPointingNowhere(byte[] image)
    {
        using var pe = new PEReader(new MemoryStream(image));
        var metadata = pe.GetMetadataReader();
        // A small assembly's row: parent, constructor and value, each a 2-byte index.
        Assert.Equal(6, metadata.GetTableRowSize(TableIndex.CustomAttribute));
        var constructor = pe.PEHeaders.MetadataStartOffset + metadata.GetTableMetadataOffset(TableIndex.CustomAttribute) + 2;
        var damaged = (byte[])image.Clone();
        (damaged[constructor], damaged[constructor + 1]) = (3, 0); // coded index: tag 3 (MethodDef), row 0
        return damaged;
    }

    /// <summary>The image with the first instruction of its first runtime-async method made 0xFE 0xFF, an opcode that does not exist.</summary>
    private static byte[] WithInvalidOpcodeInAsyncMethod(byte[] image)
    {
        using var pe = new PEReader(new MemoryStream(image));
        var metadata = pe.GetMetadataReader();
        const System.Reflection.MethodImplAttributes async = (System.Reflection.MethodImplAttributes)0x2000;
        var method = metadata.MethodDefinitions.Select(metadata.GetMethodDefinition).First(m => (m.ImplAttributes & async) != 0 && m.RelativeVirtualAddress != 0);
        var body = OffsetOf(pe, method.RelativeVirtualAddress);
        // A tiny header is one byte (low bits 10), a fat one twelve.
        var code = body + ((image[body] & 3) == 2 ? 1 : 12);
        var damaged = (byte[])image.Clone();
        (damaged[code], damaged[code + 1]) = (0xFE, 0xFF);
        return damaged;
    }

    /// <summary>The image with the return type of its first constructor reference's signature made 0 (ELEMENT_TYPE_END), which names no type.</summary>
    private static byte[] WithConstructorReferenceReturningNoType(byte[] image)
    {
        using var pe = new PEReader(new MemoryStream(image));
        var metadata = pe.GetMetadataReader();
        var reference = metadata.MemberReferences.Select(metadata.GetMemberReference).First(r => metadata.StringComparer.Equals(r.Name, ".ctor"));
        // The blob: its length (one byte for a short one), the calling convention, the parameter count, the return type.
        var blob = pe.PEHeaders.MetadataStartOffset + metadata.GetHeapMetadataOffset(HeapIndex.Blob) + MetadataTokens.GetHeapOffset(reference.Signature);
        Assert.True(image[blob] < 0x80 && image[blob + 3] == (byte)SignatureTypeCode.Void);
        var damaged = (byte[])image.Clone();
        damaged[blob + 3] = 0;
        return damaged;
    }

    /// <summary>
    /// The image with the return type of a generic method reference (AsyncHelpers.Await&lt;T&gt;'s
    /// <c>!!0</c>) made <c>!!0x1FFFFFFF</c>, the largest number a signature can hold, over the bytes after it.
    /// </summary>
    private static byte[] WithGenericReturnNumberPastLimit(byte[] image)
    {
        using var pe = new PEReader(new MemoryStream(image));
        var metadata = pe.GetMetadataReader();
        var blobHeap = pe.PEHeaders.MetadataStartOffset + metadata.GetHeapMetadataOffset(HeapIndex.Blob);
        // The blob: its length (one byte for a short one), generic (0x10), its type parameter count, the parameter count, the return type.
        var blob = metadata.MemberReferences.Select(h => blobHeap + MetadataTokens.GetHeapOffset(metadata.GetMemberReference(h).Signature))
            .First(b => image[b] is >= 9 and < 0x80 && image[b + 1] == 0x10 && image[b + 4] == (byte)SignatureTypeCode.GenericMethodParameter && image[b + 5] == 0);
        var damaged = (byte[])image.Clone();
        new byte[] { 0xDF, 0xFF, 0xFF, 0xFF }.CopyTo(damaged, blob + 5);
        return damaged;
    }

    /// <summary>The image with the token of the first call in a runtime-async method made 0x0A00FFFF, a member reference row the assembly does not have.</summary>
    private static byte[] WithCallNamingNoMember(byte[] image)
    {
        using var module = Mono.Cecil.ModuleDefinition.ReadModule(new MemoryStream(image));
        var (method, call) = module.GetTypes().SelectMany(t => t.Methods)
            .Where(m => m.HasBody && ((int)m.ImplAttributes & 0x2000) != 0)
            .SelectMany(m => m.Body.Instructions.Where(i => i.OpCode == Mono.Cecil.Cil.OpCodes.Call).Select(i => (m, i)))
            .First();
        using var pe = new PEReader(new MemoryStream(image));
        var body = OffsetOf(pe, method.RVA);
        var code = body + ((image[body] & 3) == 2 ? 1 : 12);
        var damaged = (byte[])image.Clone();
        BitConverter.GetBytes(0x0A00FFFF).CopyTo(damaged, code + call.Offset + 1);
        return damaged;
    }

    /// <summary>The image with the name of the DLL its import table names (mscoree.dll) at an address outside the image.</summary>
    private static byte[] WithImportNamePointingNowhere(byte[] image)
    {
        using var pe = new PEReader(new MemoryStream(image));
        // An import directory entry: lookup table, time stamp, forwarder chain, then the name's address.
        var name = OffsetOf(pe, pe.PEHeaders.PEHeader!.ImportTableDirectory.RelativeVirtualAddress) + 12;
        var damaged = (byte[])image.Clone();
        BitConverter.GetBytes(0x7FFFFFF0).CopyTo(damaged, name);
        return damaged;
    }

    /// <summary>The file offset of <paramref name="rva"/>.</summary>
    private static int OffsetOf(PEReader pe, int rva)
    {
        var section = pe.PEHeaders.SectionHeaders.First(s => rva >= s.VirtualAddress && rva < s.VirtualAddress + s.VirtualSize);
        return rva - section.VirtualAddress + section.PointerToRawData;
    }

    private string Write(string name, string source)
    {
        var path = Path.Combine(_folder, name);
        File.WriteAllText(path, source);
        return path;
    }

    private static ProgramBuild Fixture() => ProgramBuilder.Build("Throwing", [Path.Combine(TestEnvironment.FixturesFolder, "Throwing.cs")]);


}
