using System.Buffers.Binary;
using System.Text;
using Mono.Cecil;
using Mono.Cecil.Cil;

namespace Async2.Rewriter.Emit;

/// <summary>
/// Writes a portable .pdb as Cecil does, but has the rewritten assembly's CodeView debug entry name the
/// .pdb where the input's did (the compiler's obj folder, or its PathMap'd path), with the output's
/// file name. Cecil records the path of the stream it writes the .pdb to, which ModuleIO keeps in
/// memory (it would otherwise name the scratch folder), and then records the file name alone; a
/// debugger that finds no .pdb beside the assembly then has no build path to look in. In a build the
/// rewritten .pdb takes the compiler's place, so the recorded path is right again.
/// Keep in sync with ModuleIO.WriteThroughScratch, which chooses this provider for a .pdb file.
/// </summary>
internal sealed class RecordedPdbPath(string path) : ISymbolWriterProvider
{
    private readonly PortablePdbWriterProvider _portable = new();

    /// <summary>The provider for a rewrite of <paramref name="input"/> into <paramref name="output"/>; a plain portable one when the input records no .pdb path.</summary>
    public static ISymbolWriterProvider For(string input, string output)
    {
        var recorded = AssemblyFile.RecordedPdbPath(input);
        if (string.IsNullOrEmpty(recorded))
            return new PortablePdbWriterProvider();
        // The recorded path may be another system's (a Windows build rewritten on Linux): split at either separator.
        int folderEnd = recorded.LastIndexOfAny(['/', '\\']) + 1;
        return new RecordedPdbPath(recorded[..folderEnd] + Path.GetFileNameWithoutExtension(output) + ".pdb");
    }

    public ISymbolWriter GetSymbolWriter(ModuleDefinition module, string fileName) => new Writer(_portable.GetSymbolWriter(module, fileName), path);

    public ISymbolWriter GetSymbolWriter(ModuleDefinition module, Stream symbolStream) => new Writer(_portable.GetSymbolWriter(module, symbolStream), path);

    private sealed class Writer(ISymbolWriter portable, string path) : ISymbolWriter
    {
        /// <summary>"RSDS", the .pdb's id and its age: the CodeView data before the path (PE/COFF specification).</summary>
        private const int PathOffset = 24;

        private const uint RsdsSignature = 0x53445352;

        public ImageDebugHeader GetDebugHeader()
        {
            var header = portable.GetDebugHeader();
            for (int i = 0; header.HasEntries && i < header.Entries.Length; i++)
            {
                var entry = header.Entries[i];
                if (entry.Directory.Type == ImageDebugType.CodeView && entry.Data.Length >= PathOffset
                    && BinaryPrimitives.ReadUInt32LittleEndian(entry.Data) == RsdsSignature)
                    header.Entries[i] = WithPath(entry);
            }
            return header;
        }

        private ImageDebugHeaderEntry WithPath(ImageDebugHeaderEntry entry)
        {
            var data = new byte[PathOffset + Encoding.UTF8.GetByteCount(path) + 1];
            entry.Data.AsSpan(0, PathOffset).CopyTo(data);
            Encoding.UTF8.GetBytes(path, data.AsSpan(PathOffset));
            var directory = entry.Directory;
            directory.SizeOfData = data.Length;
            return new ImageDebugHeaderEntry(directory, data);
        }

        public ISymbolReaderProvider GetReaderProvider() => portable.GetReaderProvider();

        public void Write(MethodDebugInformation info) => portable.Write(info);

        public void Write(ICustomDebugInformationProvider provider) => portable.Write(provider);

        public void Write() => portable.Write();

        public void Dispose() => portable.Dispose();
    }
}
