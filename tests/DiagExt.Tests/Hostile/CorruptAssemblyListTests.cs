using System.Text.Json;
using DiagExt.Tests.Infrastructure;
using Microsoft.Diagnostics.Runtime;

namespace DiagExt.Tests.Hostile;

/// <summary>
/// A core whose AppDomain's assembly list is corrupt: ClrMD then knows no module, every ClrType has a null Module and
/// its IsValueType and Fields throw NullReferenceException. Found by random 4 KB writes into copies of a DictCycle core
/// ("diagext analyze" said "internal error: NullReferenceException"), bisected to 8 bytes: the first word of one
/// entry of that list. The generator below finds such an entry in any core without runtime-version offsets: a
/// pointer slot near the AppDomain leads to a block of entries, each pointing at a structure (the DomainAssembly)
/// whose first words hold a module address ClrMD lists.
/// </summary>
[TestFixture]
[Category(TestKind.Dump)]
public class CorruptAssemblyListTests
{
    /// <summary>The 8 bytes the random write put there.</summary>
    private const ulong Garbage = 0xF4FD5E45FB05A305;

    [Test]
    public void Analyze_reports_the_types_it_cannot_read_instead_of_failing()
    {
        string core = DumpMaker.DumpOfSample("DictCycle", "dictcycle-dictionary.core");
        ulong entry = FirstAssemblyListEntry(core);
        using var patch = new CorePatch(core, Path.Combine(Repo.WorkDirectory, "hostile", "corrupt-assembly-list.core"));
        patch.WriteUInt64(entry, Garbage);

        ProcessRunner.Result result = CliContract.RunExecutable("assembly list entry overwritten", TimeSpan.FromMinutes(3), "analyze", patch.Path, "--json");
        TestContext.Out.WriteLine($"entry 0x{entry:x}: exit {result.ExitCode} {result.Stderr.Trim()}");
        if (result.ExitCode == 2)
            return; // one line, checked by CliContract
        JsonElement dictcycle = JsonDocument.Parse(result.Stdout).RootElement.GetProperty("detectors").EnumerateArray()
            .Single(d => d.GetProperty("name").GetString() == "dictcycle");
        string? reason = dictcycle.TryGetProperty("reason", out JsonElement r) ? r.GetString() : null;
        TestContext.Out.WriteLine(reason);
        Assert.That(reason, Does.Contain("ClrMD could not read its type"), "the instances it could not classify are named");
    }

    private static ulong FirstAssemblyListEntry(string core)
    {
        using DataTarget dataTarget = DataTarget.LoadDump(core, new DataTargetOptions { SymbolPaths = [] });
        using ClrRuntime runtime = DumpRuntime.Open(dataTarget);
        IDataReader memory = dataTarget.DataReader;
        var modules = runtime.EnumerateModules().Select(m => m.Address).ToHashSet();
        ulong Read(ulong address) => memory.ReadPointer(address, out ulong value) ? value : 0;

        ulong domain = runtime.AppDomains.Single().Address;
        for (ulong slot = domain; slot < domain + 0x400; slot += 8)
        {
            if (Read(slot) is not (not 0 and var block))
                continue;
            for (ulong item = block; item < block + 0x100; item += 8)
            {
                ulong entry = Read(item);
                ulong target = entry == 0 ? 0 : Read(entry);
                if (target != 0 && Enumerable.Range(0, 4).Any(i => modules.Contains(Read(target + (ulong)(i * 8)))))
                    return entry;
            }
        }
        Assert.Fail($"no assembly list entry found near the AppDomain at 0x{domain:x}");
        return 0;
    }
}
