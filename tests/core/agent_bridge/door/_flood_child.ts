/**
 * A process serving what a flood attacks, for tests of the door, the bridges and the proxy under
 * one: the mini harness's endpoint on a unix socket with a real door in front of it, the demo
 * bridge on TCP, and a proxy on TCP whose upstream is a loopback fake. `--limit <n>` lowers its
 * own descriptor limit once it serves (n more than it holds then), so the flood meets EMFILE;
 * `--soft <n>` sets it to n (1024 is many systems' default).
 * Its first stdout line is JSON: {"door","bridge","proxy","id","key","limit"}. Each line on stdin
 * asks for one line of JSON back: `idle` for {"idle":true} once the door holds no connection,
 * anything else for {"unproven": <the door's unproven places>}.
 */
import { join } from "node:path";
import { encodeKey, newAgentKey, readFdLimit, Secret, setFdLimit } from "../../../../core/base/mod.ts";
import { serveEndpoint } from "../../../../connections/mod.ts";
import { miniHarnessHandler } from "../../../../core/adapters/mini/mod.ts";
import { serveProxy } from "../../../../proxy/mod.ts";
import { serveDemoBridge } from "../../../support/demo_bridge.ts";
import { serveDoor } from "../../../../core/agent_bridge/door/mod.ts";

// As main.ts does for every role. Deno sets up its signal handling lazily, a second or so after
// start, and panics if no descriptor is free then: a flood at EMFILE would kill the process.
const onSignal = () => {};
Deno.addSignalListener("SIGTERM", onSignal);

const flag = (name: string) => Deno.args.includes(name) ? Number(Deno.args[Deno.args.indexOf(name) + 1]) : 0;
const headroom = flag("--limit");
const soft = flag("--soft");
const key = newAgentKey();
const agent = { id: "floodtarget0", owner: "local-test", key };
const dir = await Deno.makeTempDir({ prefix: "lnk-flood-" });
const socket = join(dir, "endpoint.sock");

await using _endpoint = await serveEndpoint(
  { path: socket },
  miniHarnessHandler({ agents: [{ id: agent.id, name: "work", key: encodeKey(key) }] }),
);
const idle: (() => void)[] = [];
await using door = serveDoor({
  port: 0,
  target: () => Promise.resolve(socket),
  onActivity: (activity) => {
    if (activity.connections === 0) idle.splice(0).forEach((tell) => tell());
  },
});
await using bridge = await serveDemoBridge(agent, { port: 0 });
const upstream = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("hello"));
await using proxy = await serveProxy({
  secret: new Secret("flood-secret-0123456789"),
  policy: { hosts: ["example.com"] },
  localNetworks: [],
  machineNames: [],
  resolve: () => Promise.resolve(["93.184.216.34"]),
  dial: () => Deno.connect({ hostname: "127.0.0.1", port: upstream.addr.port }),
});

if (headroom > 0) setFdLimit([...Deno.readDirSync("/proc/self/fd")].length + headroom);
if (soft > 0) setFdLimit(soft);
const ready = {
  door: door.port,
  bridge: (bridge.addr as { port: number }).port,
  proxy: proxy.port,
  id: agent.id,
  key: encodeKey(key),
  limit: readFdLimit()?.soft,
};
Deno.stdout.writeSync(new TextEncoder().encode(`${JSON.stringify(ready)}\n`));

const answer = (value: unknown) =>
  Deno.stdout.writeSync(new TextEncoder().encode(`${JSON.stringify(value)}\n`));
for await (const chunk of Deno.stdin.readable) {
  if (new TextDecoder().decode(chunk) !== "idle\n") answer({ unproven: door.unproven });
  else if (door.activity.connections === 0) answer({ idle: true });
  else idle.push(() => answer({ idle: true }));
}
await upstream.shutdown();
Deno.removeSignalListener("SIGTERM", onSignal);
await Deno.remove(dir, { recursive: true });
