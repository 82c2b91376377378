using Mono.Cecil;
using Mono.Cecil.Cil;

namespace Async2.Tests.Analysis;

/// <summary>Builds small methods in an in-memory module, for testing the analyses on exact IL.</summary>
internal sealed class IlBuilder
{
    public IlBuilder(TypeReference returnType = null!, params TypeReference[] parameters)
    {
        Module = ModuleDefinition.CreateModule("Probe", ModuleKind.Dll);
        var type = new TypeDefinition("", "Probe", TypeAttributes.Public | TypeAttributes.Class, Module.TypeSystem.Object);
        Module.Types.Add(type);
        Method = new MethodDefinition("M", MethodAttributes.Public | MethodAttributes.Static, returnType ?? Module.TypeSystem.Void);
        foreach (var parameter in parameters)
            Method.Parameters.Add(new ParameterDefinition(parameter));
        type.Methods.Add(Method);
    }

    public ModuleDefinition Module { get; }

    public MethodDefinition Method { get; }

    public TypeSystem Types => Module.TypeSystem;

    public ILProcessor IL => Method.Body.GetILProcessor();

    public VariableDefinition Local(TypeReference type)
    {
        var local = new VariableDefinition(type);
        Method.Body.Variables.Add(local);
        return local;
    }

    public Instruction Emit(Instruction instruction)
    {
        Method.Body.Instructions.Add(instruction);
        return instruction;
    }
}
