// A real WCF client that hangs the way ../shared/reference/wcf-sync-after-async-hang.txt describes: a sync call
// made on the channel's own receive thread waits for a reply only that thread could read. One exe, two roles:
//
//   WcfHang server                 a small hand-written net.tcp server; prints "PORT <n>" and "READY <pid>", then
//                                  "request <Action> <MessageId>" for each request; serves until killed
//   WcfHang client <port> <mode>   calls Prepare, then the sync Commit; prints "READY <pid>" and stays alive
//
// Client modes: apm (Commit inside the BeginPrepare callback: hangs), fromasync (await FromAsync(BeginPrepare,
// EndPrepare) then Commit: hangs), seed (await the Task operation then Commit: completes on 10.1.0),
// fixed (FromAsync, then Commit moved off the receive thread with Task.Run: completes).
// Exit codes: 2 usage, 3 an exception.

try
{
    switch (args)
    {
        case ["server"]:
            var responder = new NetTcpResponder(Ledger.Answer);
            Console.WriteLine($"PORT {responder.Start()}");
            Console.WriteLine($"READY {Environment.ProcessId}");
            Console.Out.Flush();
            responder.ServeAsync().GetAwaiter().GetResult();
            return 0;
        case ["client", var portText, var modeText]
            when int.TryParse(portText, out int port) && port is > 0 and < 65536 && ParseMode(modeText) is ClientMode mode:
            return LedgerClient.Run(port, mode);
        default:
            Console.Error.WriteLine("usage: WcfHang server | WcfHang client <port> <apm|fromasync|seed|fixed>");
            return 2;
    }
}
catch (Exception e)
{
    Console.Error.WriteLine($"WcfHang: {e.GetType().Name}: {e.Message.ReplaceLineEndings(" ")}");
    return 3;
}

static ClientMode? ParseMode(string text) => text switch
{
    "apm" => ClientMode.Apm,
    "fromasync" => ClientMode.FromAsync,
    "seed" => ClientMode.Seed,
    "fixed" => ClientMode.Fixed,
    _ => null,
};
