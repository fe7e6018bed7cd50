using System.Text;

namespace DiagExt.Fuzz.Engine;

/// <summary>
/// Builds an execution's behaviour signature from facts, counts in coarse buckets (as AFL buckets hit counts), so
/// "1 thread" and "5 threads" differ but 1,000 and 1,001 do not.
/// </summary>
public sealed class Signature
{
    private readonly StringBuilder _text = new();

    public Signature Add(string name, object? value)
    {
        _text.Append(name).Append('=').Append(value switch
        {
            null => "-",
            bool b => b ? "1" : "0",
            int n => Bucket(n),
            long n => Bucket(n),
            string s => Engine.Executor.Template(s.Length > 60 ? s[..60] : s),
            _ => value.ToString(),
        }).Append('|');
        return this;
    }

    public static string Bucket(long n) => n switch
    {
        < 0 => "neg",
        0 => "0",
        1 => "1",
        2 => "2",
        < 8 => "3-7",
        < 64 => "8-63",
        < 1024 => "64-1023",
        _ => "1024+",
    };

    public override string ToString() => _text.ToString();
}
