using System.Runtime.InteropServices;

namespace DiagExt.Tests.Infrastructure;

/// <summary>
/// Puts a dump into a test's folder (a batch's input) as a hard link, not a copy: the suite's batch folders held
/// 1.5 GB of copies, and a CI disk ran out. Only for folders the test reads: a write through the link would change
/// the shared dump. Falls back to a copy across file systems (the team's shared dumps may live on another).
/// </summary>
public static class DumpLink
{
    public static void Place(string source, string target)
    {
        File.Delete(target);
        // AT_SYMLINK_FOLLOW: a dump that is itself a symbolic link is linked as the file it names.
        if (linkat(AtCurrentDirectory, source, AtCurrentDirectory, target, AtSymlinkFollow) != 0)
            File.Copy(source, target);
    }

    private const int AtCurrentDirectory = -100;
    private const int AtSymlinkFollow = 0x400;

    // DllImport, not LibraryImport: the test project does not allow unsafe code; a string marshals as UTF-8 on Linux.
    [DllImport("libc", SetLastError = true)]
    private static extern int linkat(int oldDirectory, string oldPath, int newDirectory, string newPath, int flags);
}
