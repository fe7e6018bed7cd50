namespace DiagExt.Core.Targets.Sources;

/// <summary>How a dump is stored in the file a user names.</summary>
public enum DumpContainer
{
    /// <summary>The file is the dump.</summary>
    None,

    /// <summary>A gzip file holding one dump (x.core.gz).</summary>
    Gzip,

    /// <summary>One member of a zip archive.</summary>
    Zip,
}

/// <summary>Where one dump is: a file, a gzip file, or a member of a zip. Names it the way reports show it.</summary>
public sealed record DumpSource(string Path, DumpContainer Container = DumpContainer.None, string? Entry = null)
{
    /// <summary>"dumps/a.core", "dumps/a.core.gz" or "dumps/all.zip:crash/a.dmp".</summary>
    public string DisplayName => Entry is null ? Path : $"{Path}:{Entry}";

    public bool IsPacked => Container != DumpContainer.None;
}
