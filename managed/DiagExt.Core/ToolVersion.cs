using System.Reflection;

namespace DiagExt.Core;

/// <summary>The version of DiagExt printed in reports and by <c>diagext --version</c>.</summary>
public static class ToolVersion
{
    public static string Current { get; } =
        typeof(ToolVersion).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion?.Split('+')[0] ?? "0.0.0";
}
