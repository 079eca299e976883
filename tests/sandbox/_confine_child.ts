// Run inside a sandbox by a test, as Link Harness runs run's commands: starts `sh -c <script>`
// through a ConfinedSpawner keeping <kept> from it, prints what it printed, then writes
// <kept>/chats/harness.json from this process, as the harness writes its chats.
import { ConfinedSpawner } from "../../sandbox/mod.ts";

const [kept, script] = Deno.args as [string, string];
await using spawner = await ConfinedSpawner.start([kept]);
const child = await spawner.spawn("/bin/sh", { args: ["-c", script], stdin: "null" });
const [out] = await Promise.all([new Response(child.stdout).text(), child.status]);
await Deno.writeTextFile(`${kept}/chats/harness.json`, "{}\n");
await Deno.stdout.write(new TextEncoder().encode(`${out}harness wrote chats/harness.json\n`));
