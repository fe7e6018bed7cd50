namespace DiagExt.Tests.Infrastructure;

/// <summary>A folder under the test run's work directory, emptied first: for the dumps and reports one test makes.</summary>
public static class WorkFolder
{
    public static string Fresh(params string[] parts)
    {
        string folder = Path.Combine([Repo.WorkDirectory, .. parts]);
        if (Directory.Exists(folder))
            Directory.Delete(folder, recursive: true);
        Directory.CreateDirectory(folder);
        return folder;
    }
}
