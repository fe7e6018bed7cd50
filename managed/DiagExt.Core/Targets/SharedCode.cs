namespace DiagExt.Core.Targets;

/// <summary>
/// Which instances a frame's code can be running on. The JIT shares one copy of a generic method's code among
/// instantiations over reference types, and names its type with System.__Canon in their place: a frame of
/// Dictionary&lt;__Canon, Int32&gt; runs on a Dictionary&lt;String, Int32&gt;.
/// </summary>
public static class SharedCode
{
    /// <summary>
    /// Whether a frame's type (shared generic code: reference type arguments appear as System.__Canon)
    /// can be running on an instance of <paramref name="instanceType"/>.
    /// </summary>
    public static bool Runs(string frameType, string instanceType)
    {
        (string frameName, List<string> frameArgs) = Split(frameType);
        (string instanceName, List<string> instanceArgs) = Split(instanceType);
        if (frameName != instanceName || frameArgs.Count != instanceArgs.Count)
            return false;
        for (int i = 0; i < frameArgs.Count; i++)
            if (frameArgs[i] != instanceArgs[i] && frameArgs[i] != "System.__Canon")
                return false;
        return true;
    }

    private static (string Name, List<string> Args) Split(string type)
    {
        int open = type.IndexOf('<');
        if (open < 0 || !type.EndsWith('>'))
            return (type, []);
        var args = new List<string>();
        int depth = 0, start = open + 1;
        for (int i = open + 1; i < type.Length - 1; i++)
        {
            char c = type[i];
            if (c == '<')
                depth++;
            else if (c == '>')
                depth--;
            else if (c == ',' && depth == 0)
            {
                args.Add(type[start..i].Trim());
                start = i + 1;
            }
        }
        args.Add(type[start..^1].Trim());
        return (type[..open], args);
    }
}
