using System.Net;
using System.Text;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace Async2.Cli.Inspect;

/// <summary>The three forms of an inspection: grep-able text (one line per await), JSON for tools, and one self-contained HTML page.</summary>
internal static class ReportWriters
{
    public static string Text(InspectionReport report)
    {
        var text = new StringBuilder($"{report.Assembly}: {report.Form}, {report.Methods.Count} async method(s)\n");
        foreach (var method in report.Methods)
        {
            var facts = new List<string> { method.Status };
            if (method.Reason is { } reason)
                facts.Add(reason);
            // Known only for a method rewritten by this inspection, not for one rewritten before.
            if (method.Status == "rewritten" && method.Continuation is not null)
            {
                facts.Add($"{method.Awaits.Count} suspension point(s)");
                if (method.ContinuationBytes is int bytes)
                    facts.Add($"continuation {bytes} B");
                facts.Add(method.StackGuard ? "stack guard" : "no stack guard");
                facts.Add(method.ContextScope ? "context scope" : "no context scope");
            }
            text.Append($"method {method.Method}: {string.Join(", ", facts)}\n");
            foreach (var await in method.Awaits)
            {
                var where = await.ILOffset >= 0 ? $"IL_{await.ILOffset:x4}" : "entry";
                if (await.Source is { } source)
                    where += $" {Path.GetFileName(source.File)}:{source.Line}";
                var why = await.Why is null ? "" : $" ({await.Why})";
                var live = await.Live.Count == 0 ? "nothing" : string.Join(", ", await.Live.Select(v => $"{v.Name}: {v.Type}"));
                text.Append($"  await {method.Method} state {await.State} at {where}: {await.Kind} {await.Awaited}{why}; keeps {live}\n");
            }
        }
        return text.ToString();
    }

    public static string Json(InspectionReport report) => JsonSerializer.Serialize(report, Options);

    private static readonly JsonSerializerOptions Options = new()
    {
        WriteIndented = true,
        PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
        DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
    };

    /// <summary>
    /// A page a person can browse with no network: the methods sorted by suspension points, then
    /// continuation size (a click on a column header sorts by it), and per method its awaits and
    /// its IL before and after, with the await sites marked.
    /// </summary>
    public static string Html(InspectionReport report)
    {
        var html = new StringBuilder();
        html.Append($$"""
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>async2 inspect: {{E(Path.GetFileName(report.Assembly))}}</title>
            <style>
            body { font: 14px system-ui, sans-serif; margin: 1.5em; color: #222; }
            table { border-collapse: collapse; width: 100%; }
            th, td { border-bottom: 1px solid #ddd; padding: 4px 8px; text-align: left; vertical-align: top; }
            th { background: #f3f3f3; cursor: pointer; user-select: none; }
            td.n { text-align: right; font-variant-numeric: tabular-nums; }
            .rewritten { color: #1a7f37; } .classic, .not { color: #9a6700; }
            pre { background: #f8f8f8; padding: 6px; overflow-x: auto; font-size: 12px; margin: 4px 0; }
            pre .await { background: #fff3b0; font-weight: bold; }
            details { margin: 2px 0; } .il { display: grid; grid-template-columns: 1fr 1fr; gap: 8px; }
            </style></head><body>
            <h1>{{E(Path.GetFileName(report.Assembly))}}</h1>
            <p>{{E(report.Assembly)}}: {{E(report.Form)}}, {{report.Methods.Count}} async method(s). Continuation sizes are estimates of the heap object (64-bit).</p>
            <table id="methods"><thead><tr><th>method</th><th>status</th><th>suspension points</th><th>continuation bytes</th><th>stack guard</th><th>context scope</th></tr></thead><tbody>

            """);
        foreach (var method in report.Methods.OrderByDescending(m => m.Awaits.Count).ThenByDescending(m => m.ContinuationBytes ?? 0).ThenBy(m => m.Method, StringComparer.Ordinal))
        {
            var awaitOffsets = method.Awaits.Where(a => a.ILOffset >= 0).Select(a => $"IL_{a.ILOffset:x4}:").ToHashSet();
            html.Append($"<tr class=\"method\"><td><details><summary><code>{E(method.Method)}</code></summary>");
            if (method.Reason is { } reason)
                html.Append($"<p>{E(reason)}</p>");
            if (method.Awaits.Count > 0)
            {
                html.Append("<ul>");
                foreach (var await in method.Awaits)
                {
                    var where = await.ILOffset >= 0 ? $"IL_{await.ILOffset:x4}" : "entry";
                    if (await.Source is { } source)
                        where += $", {Path.GetFileName(source.File)}:{source.Line}";
                    html.Append($"<li>state {await.State} at {E(where)}: <b>{E(await.Kind)}</b> <code>{E(await.Awaited)}</code>");
                    if (await.Why is { } why)
                        html.Append($" ({E(why)})");
                    html.Append($"; keeps {(await.Live.Count == 0 ? "nothing" : E(string.Join(", ", await.Live.Select(v => $"{v.Name}: {v.Type}"))))}</li>");
                }
                html.Append("</ul>");
            }
            if (method.ILBefore.Count > 0)
                html.Append($"<div class=\"il\"><div>IL before<pre>{Listing(method.ILBefore, line => awaitOffsets.Any(line.StartsWith))}</pre></div>"
                    + $"<div>IL after<pre>{Listing(method.ILAfter, IsAwaitAfter)}</pre></div></div>");
            html.Append($"</details></td><td class=\"{method.Status.Split(' ')[0]}\">{E(method.Status)}</td><td class=\"n\">{method.Awaits.Count}</td>"
                + $"<td class=\"n\">{method.ContinuationBytes?.ToString() ?? ""}</td><td>{(method.StackGuard ? "yes" : "")}</td><td>{(method.ContextScope ? "yes" : "")}</td></tr>\n");
        }
        html.Append("""
            </tbody></table>
            <script>
            // Sorting by a column: numbers high to low, text A to Z; a second click reverses.
            document.querySelectorAll('#methods th').forEach((header, column) => header.addEventListener('click', () => {
              const body = document.querySelector('#methods tbody');
              const rows = [...body.rows];
              const numeric = rows.every(r => r.cells[column].textContent === '' || !isNaN(r.cells[column].textContent));
              const key = r => numeric ? -Number(r.cells[column].textContent || 0) : r.cells[column].textContent;
              const sign = header.dataset.sorted === 'yes' ? -1 : 1;
              document.querySelectorAll('#methods th').forEach(h => delete h.dataset.sorted);
              if (sign === 1) header.dataset.sorted = 'yes';
              rows.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0) * sign).forEach(r => body.appendChild(r));
            }));
            </script>
            </body></html>

            """);
        return html.ToString();
    }

    /// <summary>In the rewritten IL: calls into variants, entries and the runtime's await bridges.</summary>
    private static bool IsAwaitAfter(string line) =>
        line.Contains("d__Async2_") && line.Contains("call") || line.Contains("v__Async2") || line.Contains("AwaitBridge::") || line.Contains("OverrideDispatch::Await");

    private static string Listing(IEnumerable<string> lines, Func<string, bool> isAwait) =>
        string.Join("\n", lines.Select(line => isAwait(line) ? $"<span class=\"await\">{E(line)}</span>" : E(line)));

    private static string E(string text) => WebUtility.HtmlEncode(text);
}
