// Runs program ?run=K (with its Main's arguments, &arg=...) in a fresh .NET runtime (Program.cs posts its transcript), then asks the
// server which page to load next (WasmRunner.cs answers with a URL, or nothing when all are done).
// What ended a runtime that posted nothing (Environment.Exit, a crash) is posted after it: the
// server keeps the first transcript of a run, so this one counts only alone.
import { dotnet } from './_framework/dotnet.js';

const query = new URLSearchParams(location.search);
const run = query.get('run');
let ending;
try {
    ending = `[runtime exited with ${await dotnet.withApplicationArguments(run, ...query.getAll('arg')).run()}]`;
} catch (e) {
    ending = `[host failed] ${e}`;
}
await fetch(`/result/${run}`, { method: 'POST', body: ending });
const next = await (await fetch(`/next/${run}`)).text();
if (next)
    location.replace(next);
