using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;
using System.Security.Cryptography;

namespace Async2.Tests.Packages;

/// <summary>
/// Checks an assembly's strong-name signature the way a verifier does (.NET itself no longer
/// checks them at load): the RSA signature over the image's hash, leaving out the checksum, the
/// certificate table's directory entry and the signature itself, against the assembly's own
/// public key. The SDK ships no `sn`; tests use this to tell a signed output from a zeroed one.
/// </summary>
internal static class StrongNameSignature
{
    public enum State { NoPublicKey, NotSigned, Valid, Invalid }

    /// <summary>A key pair in the .snk format (a CAPI private key blob).</summary>
    public static byte[] NewKeyPair()
    {
        using var rsa = new RSACryptoServiceProvider(1024);
        return rsa.ExportCspBlob(includePrivateParameters: true);
    }

    public static State Check(string path)
    {
        var image = File.ReadAllBytes(path);
        using var pe = new PEReader(new MemoryStream(image));
        var metadata = pe.GetMetadataReader();
        var publicKey = metadata.GetBlobBytes(metadata.GetAssemblyDefinition().PublicKey);
        if (publicKey.Length == 0)
            return State.NoPublicKey;
        var headers = pe.PEHeaders;
        var directory = headers.CorHeader!.StrongNameSignatureDirectory;
        if (directory.Size == 0 || !headers.TryGetDirectoryOffset(directory, out int signatureAt)
            || !image.AsSpan(signatureAt, directory.Size).ContainsAnyExcept((byte)0))
            return State.NotSigned;

        var signature = image.AsSpan(signatureAt, directory.Size).ToArray();
        Array.Reverse(signature); // stored little-endian
        using var rsa = RSA.Create();
        rsa.ImportParameters(RsaParameters(publicKey));
        var hashed = HashedBytes(image, headers, signatureAt, directory.Size);
        return rsa.VerifyData(hashed, signature, HashAlgorithmName.SHA1, RSASignaturePadding.Pkcs1)
            || rsa.VerifyData(hashed, signature, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1)
            ? State.Valid
            : State.Invalid;
    }

    /// <summary>The headers (checksum and certificate entry zeroed) and each section in file order, the signature cut out.</summary>
    private static byte[] HashedBytes(byte[] image, PEHeaders headers, int signatureAt, int signatureSize)
    {
        int optionalHeader = headers.PEHeaderStartOffset;
        int headersEnd = optionalHeader + headers.CoffHeader.SizeOfOptionalHeader + headers.SectionHeaders.Length * 40;
        var hashed = new MemoryStream();
        var headerBytes = image[..headersEnd];
        const int checksumOffset = 64;
        int certificateEntry = optionalHeader + (headers.PEHeader!.Magic == PEMagic.PE32Plus ? 112 : 96) + 4 * 8;
        Array.Clear(headerBytes, optionalHeader + checksumOffset, 4);
        Array.Clear(headerBytes, certificateEntry, 8);
        hashed.Write(headerBytes);
        foreach (var section in headers.SectionHeaders.OrderBy(s => s.PointerToRawData))
        {
            int start = section.PointerToRawData, end = start + section.SizeOfRawData;
            if (signatureAt >= start && signatureAt < end)
            {
                hashed.Write(image, start, signatureAt - start);
                hashed.Write(image, signatureAt + signatureSize, end - signatureAt - signatureSize);
            }
            else
            {
                hashed.Write(image, start, end - start);
            }
        }
        return hashed.ToArray();
    }

    /// <summary>
    /// An assembly's public key: a 12-byte header (algorithm ids, length), then a CAPI PUBLICKEYBLOB:
    /// an 8-byte BLOBHEADER, "RSA1", the bit length, the exponent, and the modulus little-endian.
    /// </summary>
    private static RSAParameters RsaParameters(byte[] publicKey)
    {
        const int rsaPublicKey = 12 + 8;
        int bits = BitConverter.ToInt32(publicKey, rsaPublicKey + 4);
        var exponent = BitConverter.GetBytes(BitConverter.ToUInt32(publicKey, rsaPublicKey + 8)).Reverse().SkipWhile(b => b == 0).ToArray();
        var modulus = publicKey.AsSpan(rsaPublicKey + 12, bits / 8).ToArray();
        Array.Reverse(modulus);
        return new RSAParameters { Modulus = modulus, Exponent = exponent };
    }
}
