namespace Hangs;

/// <summary>A thread blocked on an async method that awaits a TaskCompletionSource nobody completes.</summary>
internal static class NeverCompleted
{
    public static readonly TaskCompletionSource<string> Reply = new();

    public static void Run()
    {
        Thread caller = Blocked.Start("caller", () =>
        {
            Blocked.Say("caller", "nothing", "Reply");
            Console.WriteLine(FetchAsync().GetAwaiter().GetResult());
        });
        Blocked.WaitFor(caller);
    }

    private static async Task<string> FetchAsync()
    {
        string reply = await Reply.Task;
        return reply.ToUpperInvariant();
    }
}
