using System.Collections.Immutable;
using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using System.Reflection.PortableExecutable;

namespace Async2.Rewriter.Emit;

/// <summary>
/// Finds a member reference or type or method instantiation whose signature is damaged: one that
/// does not decode, or names a generic parameter past the 65,535 metadata can number (the
/// GenericParam table holds the number in two bytes). Cecil decodes such signatures when a method
/// body first names them, with no check: reading a member reference, it gives the generic type or
/// method referred to as many parameters as the number asks for, one object each, so a damaged
/// number near 2^29 kept a rewrite busy for minutes. ModuleIO checks the input with this before
/// Cecil reads it. Definitions' own signatures are not checked: Cecil reads them with a bound.
/// </summary>
internal static class DamagedSignatures
{
    private const int MostGenericParameters = ushort.MaxValue + 1;

    /// <summary>What in <paramref name="path"/> is damaged this way, as a phrase; null if nothing is.</summary>
    public static string? Find(string path)
    {
        using var stream = File.OpenRead(path);
        using var pe = new PEReader(stream);
        var metadata = pe.GetMetadataReader();
        var numbers = new GenericParameterNumbers();
        foreach (var handle in metadata.MemberReferences)
        {
            var reference = metadata.GetMemberReference(handle);
            if (numbers.Check(() => _ = reference.GetKind() == MemberReferenceKind.Method
                    ? reference.DecodeMethodSignature(numbers, null).ReturnType
                    : reference.DecodeFieldSignature(numbers, null)) is { } problem)
                return $"the signature of member reference {Token(handle)} {problem}";
        }
        foreach (var handle in Rows(metadata, TableIndex.TypeSpec, MetadataTokens.TypeSpecificationHandle))
            if (numbers.Check(() => metadata.GetTypeSpecification(handle).DecodeSignature(numbers, null)) is { } problem)
                return $"type specification {Token(handle)} {problem}";
        foreach (var handle in Rows(metadata, TableIndex.MethodSpec, MetadataTokens.MethodSpecificationHandle))
            if (numbers.Check(() => metadata.GetMethodSpecification(handle).DecodeSignature(numbers, null)) is { } problem)
                return $"the instantiation of method specification {Token(handle)} {problem}";
        return null;
    }

    private static IEnumerable<T> Rows<T>(MetadataReader metadata, TableIndex table, Func<int, T> handle) =>
        Enumerable.Range(1, metadata.GetTableRowCount(table)).Select(handle);

    private static string Token(EntityHandle handle) => $"0x{MetadataTokens.GetToken(handle):X8}";

    /// <summary>Decodes signatures only to see the generic parameter numbers they name.</summary>
    private sealed class GenericParameterNumbers : ISignatureTypeProvider<bool, object?>
    {
        private int _largest;

        /// <summary>What is wrong with the signature <paramref name="decode"/> reads, as a phrase; null if nothing.</summary>
        public string? Check(Action decode)
        {
            _largest = -1;
            try
            {
                decode();
            }
            catch (BadImageFormatException e)
            {
                return $"cannot be decoded ({e.Message})";
            }
            return _largest >= MostGenericParameters
                ? $"names generic parameter {_largest:N0}, past the {MostGenericParameters - 1:N0} metadata can number"
                : null;
        }

        private bool Saw(int index)
        {
            _largest = Math.Max(_largest, index);
            return false;
        }

        public bool GetGenericTypeParameter(object? genericContext, int index) => Saw(index);
        public bool GetGenericMethodParameter(object? genericContext, int index) => Saw(index);
        public bool GetGenericInstantiation(bool genericType, ImmutableArray<bool> typeArguments) => false;
        public bool GetFunctionPointerType(MethodSignature<bool> signature) => false;
        public bool GetModifiedType(bool modifier, bool unmodifiedType, bool isRequired) => false;
        public bool GetArrayType(bool elementType, ArrayShape shape) => false;
        public bool GetSZArrayType(bool elementType) => false;
        public bool GetByReferenceType(bool elementType) => false;
        public bool GetPointerType(bool elementType) => false;
        public bool GetPinnedType(bool elementType) => false;
        public bool GetPrimitiveType(PrimitiveTypeCode typeCode) => false;
        public bool GetTypeFromDefinition(MetadataReader reader, TypeDefinitionHandle handle, byte rawTypeKind) => false;
        public bool GetTypeFromReference(MetadataReader reader, TypeReferenceHandle handle, byte rawTypeKind) => false;
        // Each type specification is checked on its own.
        public bool GetTypeFromSpecification(MetadataReader reader, object? genericContext, TypeSpecificationHandle handle, byte rawTypeKind) => false;
    }
}
