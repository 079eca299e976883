// Run inside a sandbox by a test, as a shared Link Harness runs one agent's commands (PRC-4):
// starts `sh -c <script>` through a ConfinedSpawner hiding <hidden> from it, prints what it
// printed, then reads <hidden>/<file> from this process, as the harness reads the other agents'.
import { ConfinedSpawner } from "../../sandbox/mod.ts";

const [hidden, file, script] = Deno.args as [string, string, string];
await using spawner = await ConfinedSpawner.start([], { hide: [hidden] });
const child = await spawner.spawn("/bin/sh", { args: ["-c", script], stdin: "null" });
const [out] = await Promise.all([new Response(child.stdout).text(), child.status]);
const read = await Deno.readTextFile(`${hidden}/${file}`);
await Deno.stdout.write(new TextEncoder().encode(`${out}harness read ${file}: ${read}`));
