/**
 * Runs inside a real sandbox: the harness's side of the store bridge. Calls the store through the
 * bridge, then reports what it sees of its own world as one line of JSON.
 */
import { decodeKey } from "../../../../core/base/mod.ts";
import { bridgeStore } from "../../../../core/harness/store/mod.ts";

const [socket = "", agentId = "", owner = "", outsideDb = ""] = Deno.args;
const key = decodeKey(Deno.env.get("LNK_TEST_KEY") ?? "");
await using store = bridgeStore({ socket, agentId, owner, key });
const event = { type: "message" as const, text: "from inside", request: "r1", at: 1 };
const appended = await store.append("link:main", 1, event);
const events = await store.read("link:main");
const database = await Deno.stat(outsideDb).then(() => "seen", (err) => err.name);
const environment = Object.entries(Deno.env.toObject()).map(([name, value]) => `${name}=${value}`).join("\n");
const line = {
  appended,
  events,
  database,
  net: await Deno.readLink("/proc/self/ns/net"),
  environment,
};
// deno-lint-ignore no-console -- the test reads this line.
console.log(JSON.stringify(line));
