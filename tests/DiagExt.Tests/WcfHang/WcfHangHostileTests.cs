using System.Text.Json;
using DiagExt.Core.Targets;
using DiagExt.Tests.Hostile;
using DiagExt.Tests.Infrastructure;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Tests.WcfHang;

/// <summary>
/// The hung client's core made to lie about its WCF objects: a request whose parent points anywhere, a handler and
/// binder that point at themselves or each other in a loop, strings and addresses that are not what they claim.
/// diagext runs as its own process and must answer (findings or one line), never crash or hang, and must not call
/// a self-deadlock certain once the proof that ties the waiter to the channel is gone.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class WcfHangHostileTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromMinutes(3);

    public sealed record Layout(ulong Request, ulong RequestParentField, ulong Binder, ulong BinderHandlerField, ulong BinderChannelField,
        ulong Handler, ulong HandlerBinderField, ulong Delivering, ulong DeliveringParentField, ulong OperationNameField);

    private static string _core = "";
    private static Layout _layout = null!;

    [OneTimeSetUp]
    public void FindTheObjects()
    {
        _core = WcfHangSample.Dump("apm").Path;
        JsonElement finding = Diagext.Run("wcfhang", _core, "--json").Findings.Single();
        ulong Hex(string name) => Convert.ToUInt64(finding.GetProperty(name).GetString(), 16);

        using Target target = TargetOpener.OpenDump(_core);
        ClrHeap heap = target.Runtime!.Heap;
        ulong Field(ulong obj, string name) => heap.GetObject(obj).Type!.GetFieldByName(name)!.GetAddress(obj);
        ulong request = Hex("requestAddress"), binder = Hex("binderAddress"), handler = Hex("channelHandlerAddress");
        ulong delivering = heap.EnumerateObjects().First(o => o.Type?.Name == "System.ServiceModel.Dispatcher.DuplexChannelBinder+AsyncDuplexRequest"
            && o.ReadObjectField("_parent").Address == binder && o.ReadField<bool>("_gotReply")).Address;
        ulong operation = heap.EnumerateObjects().First(o => o.Type?.Name == "System.ServiceModel.Dispatcher.ProxyOperationRuntime"
            && o.ReadStringField("<Name>k__BackingField") == "Commit").Address;
        _layout = new Layout(request, Field(request, "_parent"), binder, Field(binder, "_channelHandler"), Field(binder, "_channel"),
            handler, Field(handler, "_duplexBinder"), delivering, Field(delivering, "_parent"), Field(operation, "<Name>k__BackingField"));
    }

    private static IEnumerable<TestCaseData> Lies()
    {
        yield return Case("the request's parent points outside memory", false, (p, l) => p.WriteUInt64(l.RequestParentField, 0x0000DEAD00000000));
        yield return Case("the request's parent points at the request itself", false, (p, l) => p.WriteUInt64(l.RequestParentField, l.Request));
        yield return Case("the request's parent points into the middle of the binder", false, (p, l) => p.WriteUInt64(l.RequestParentField, l.Binder + 12));
        yield return Case("binder and handler point at themselves", true, (p, l) =>
        {
            p.WriteUInt64(l.BinderHandlerField, l.Binder);
            p.WriteUInt64(l.HandlerBinderField, l.Handler);
        });
        yield return Case("the handler points at another binder", true, (p, l) => p.WriteUInt64(l.HandlerBinderField, l.Request));
        yield return Case("the binder's channel is the handler", true, (p, l) => p.WriteUInt64(l.BinderChannelField, l.Handler));
        yield return Case("the delivering request belongs to no binder", true, (p, l) => p.WriteUInt64(l.DeliveringParentField, 0));
        yield return Case("the operation's name is an int[]", true, (p, l) => p.WriteUInt64(l.OperationNameField, l.Binder));
    }

    private static TestCaseData Case(string name, bool stillProvable, Action<CorePatch, Layout> lie) =>
        new TestCaseData(name, stillProvable, lie).SetName($"Hostile WCF heap: {name}");

    [TestCaseSource(nameof(Lies))]
    public void Answers_and_claims_no_more_than_the_heap_proves(string name, bool stillProvable, Action<CorePatch, Layout> lie)
    {
        using var patch = new CorePatch(_core, Path.Combine(Repo.WorkDirectory, "hostile", "hostile-wcf.core"));
        lie(patch, _layout);
        ProcessRunner.Result result = CliContract.RunExecutable(name, Timeout, "wcfhang", patch.Path, "--json");
        JsonElement[] findings = [.. JsonDocument.Parse(result.Stdout).RootElement.GetProperty("findings").EnumerateArray()];
        TestContext.Out.WriteLine($"{name}: {string.Join("; ", findings.Select(f => f.GetProperty("kind").GetString() + ": " + f.GetProperty("title").GetString()))}");
        // The waiter still waits in WaitForReply holding the request: it is always reported, as certain only while
        // the pump frames plus an object of the same channel on its stack still prove it.
        JsonElement finding = findings.Single();
        Assert.That(finding.GetProperty("requestAddress").GetString(), Is.EqualTo($"0x{_layout.Request:x}"));
        if (!stillProvable)
            Assert.That(finding.GetProperty("kind").GetString(), Is.EqualTo("waiting-for-reply"), "without its binder the request cannot be tied to the pump");
    }
}
