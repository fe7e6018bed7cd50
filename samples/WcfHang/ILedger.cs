using System.ServiceModel;

/// <summary>
/// The contract the client calls. Prepare comes in three client-side shapes of one operation (sync, APM pair,
/// Task), so every mode sends the same message; Commit is the sync call that hangs when made on the receive thread.
/// </summary>
[ServiceContract(Namespace = Ledger.Namespace)]
public interface ILedger
{
    [OperationContract]
    bool Prepare(int id);

    [OperationContract(AsyncPattern = true)]
    IAsyncResult BeginPrepare(int id, AsyncCallback? callback, object? state);

    bool EndPrepare(IAsyncResult result);

    [OperationContract]
    Task<bool> PrepareAsync(int id);

    [OperationContract]
    void Commit(int id);
}

/// <summary>What the test server answers for each ledger operation.</summary>
static class Ledger
{
    public const string Namespace = "urn:diagext:wcfhang";

    /// <summary>
    /// Prepare's reply is held back so the client has registered its continuation (APM callback or await)
    /// before the reply arrives; otherwise the continuation can run inline on the caller and nothing hangs.
    /// </summary>
    public static OperationReply Answer(string operation) => operation switch
    {
        "Prepare" => new("true", TimeSpan.FromMilliseconds(150)),
        _ => new(null, TimeSpan.Zero),
    };
}
