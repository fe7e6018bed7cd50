using DiagExt.Core.Targets;
using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using DiagExt.Core.Il;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Core.Detectors.Hang;

/// <summary>
/// Which SemaphoreSlim an async method awaits at each of its awaits, read from its state machine's MoveNext IL: a
/// field load (a static, or a field of the method's own object) then SemaphoreSlim.WaitAsync, then the number the
/// compiler gives that await (stored in &lt;&gt;1__state when it suspends). A semaphore has no owner in memory: an async
/// method suspended at await K that awaited semaphore S at an earlier await holds S unless it released it in between;
/// this is what hang can say, and it says it is read from the code.
/// </summary>
internal sealed class AwaitSites(LoadedModuleImages images)
{
    /// <summary>A semaphore awaited at one await: the field it was loaded from.</summary>
    public sealed record Site(int State, string FieldType, string Field, bool IsStatic);

    /// <summary>Instructions after WaitAsync within which its await number must appear (the awaiter plumbing is ~8).</summary>
    private const int StateWindow = 16;

    private readonly Dictionary<ulong, IReadOnlyList<Site>> _byMethodTable = [];

    public IReadOnlyList<Site> For(ClrType stateMachine)
    {
        if (!_byMethodTable.TryGetValue(stateMachine.MethodTable, out IReadOnlyList<Site>? sites))
            _byMethodTable[stateMachine.MethodTable] = sites = Read(stateMachine);
        return sites;
    }

    private IReadOnlyList<Site> Read(ClrType stateMachine)
    {
        try
        {
            if (stateMachine.Module is not { } module || images.For(module) is not { } image || stateMachine.MetadataToken == 0)
                return [];
            MetadataReader md = image.Metadata;
            var typeHandle = (TypeDefinitionHandle)MetadataTokens.EntityHandle(stateMachine.MetadataToken);
            foreach (MethodDefinitionHandle handle in md.GetTypeDefinition(typeHandle).GetMethods())
            {
                if (md.GetString(md.GetMethodDefinition(handle).Name) != "MoveNext" && !md.GetString(md.GetMethodDefinition(handle).Name).EndsWith(".MoveNext", StringComparison.Ordinal))
                    continue;
                if (image.Body(handle) is not { } body)
                    return [];
                return Scan(md, IlDecoder.Decode(body.GetILBytes()));
            }
        }
        catch (Exception e) when (e is BadImageFormatException or InvalidOperationException or ArgumentException or IOException)
        {
        }
        return [];
    }

    private static List<Site> Scan(MetadataReader md, IlInstruction[] code)
    {
        var sites = new List<Site>();
        (string Type, string Name, bool Static)? lastField = null;
        for (int i = 0; i < code.Length; i++)
        {
            IlInstruction ins = code[i];
            if (ins.OpCode is ILOpCode.Ldsfld or ILOpCode.Ldfld)
                lastField = Field(md, MetadataTokens.EntityHandle(ins.Token)) is { } f ? (f.Type, f.Name, ins.OpCode == ILOpCode.Ldsfld) : null;
            else if (ins.OpCode is ILOpCode.Call or ILOpCode.Callvirt
                     && MethodReference.Resolve(md, MetadataTokens.EntityHandle(ins.Token)) is { Name: "WaitAsync" } call
                     && call.OpenDeclaringType == HangNames.SemaphoreSlim && lastField is { } field)
            {
                for (int j = i + 1; j < code.Length && j <= i + StateWindow; j++)
                    if (StateNumber(code[j]) is int state)
                    {
                        sites.Add(new Site(state, field.Type, field.Name, field.Static));
                        break;
                    }
            }
        }
        return sites;
    }

    private static int? StateNumber(IlInstruction ins) => ins.OpCode switch
    {
        >= ILOpCode.Ldc_i4_0 and <= ILOpCode.Ldc_i4_8 => ins.OpCode - ILOpCode.Ldc_i4_0,
        ILOpCode.Ldc_i4_s or ILOpCode.Ldc_i4 when ins.IntOperand >= 0 => ins.IntOperand,
        _ => null,
    };

    private static (string Type, string Name)? Field(MetadataReader md, EntityHandle handle)
    {
        switch (handle.Kind)
        {
            case HandleKind.FieldDefinition:
                FieldDefinition def = md.GetFieldDefinition((FieldDefinitionHandle)handle);
                return (MetadataNames.TypeName(md, def.GetDeclaringType()), md.GetString(def.Name));
            case HandleKind.MemberReference:
                MemberReference member = md.GetMemberReference((MemberReferenceHandle)handle);
                return member.GetKind() == MemberReferenceKind.Field ? (MetadataNames.TypeName(md, member.Parent), md.GetString(member.Name)) : null;
            default:
                return null;
        }
    }
}
