/**
 * A Signal carrier as a process of its own, to be killed: runs carrySignal with the JSON options
 * given as its one argument, writes each state it comes to on stdout (one JSON line each), and
 * stops on SIGTERM.
 */
import { carrySignal } from "../../../connections/signal/mod.ts";

const given = JSON.parse(Deno.args[0]!) as {
  daemonUrl: string;
  number: string;
  stateDir: string;
  ownerNumber: string;
  socket: string;
  agentId: string;
  agentName: string;
  key: number[];
};
const stop = new AbortController();
Deno.addSignalListener("SIGTERM", () => stop.abort());
const out = Deno.stdout.writable.getWriter();
await carrySignal({
  account: { daemonUrl: given.daemonUrl, number: given.number },
  stateDir: given.stateDir,
  ownerNumber: given.ownerNumber,
  endpoint: { path: given.socket },
  caller: { agentId: given.agentId, agentName: given.agentName, key: new Uint8Array(given.key) },
  signal: stop.signal,
  onState: (state) => void out.write(new TextEncoder().encode(`${JSON.stringify(state)}\n`)),
});
Deno.exit(0);
