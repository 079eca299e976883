import assert from "node:assert/strict";
import { services } from "../../../core/agent/mod.ts";
import { runCli, runJson } from "../../support/mod.ts";
import { createAgent, sharedHome, type Status } from "../../support/shared_bridge.ts";
import { askSharedBridge } from "../../../core/agent/sharing/mod.ts";

/** Notes as a command writes them, and a way to wait for one. */
class Notes {
  seen: string[] = [];
  #waiter: (() => void) | undefined;
  add = (text: string): void => {
    this.seen.push(text);
    this.#waiter?.();
  };
  async until(pattern: RegExp): Promise<string> {
    for (;;) {
      const found = this.seen.find((t) => pattern.test(t));
      if (found) return found;
      const { promise, resolve } = Promise.withResolvers<void>();
      this.#waiter = resolve;
      await promise;
    }
  }
}

Deno.test("lnk agent start --foreground with shared_bridge: the shared bridge is a session of its own, started again when it is gone; Ctrl-C takes the agent off (PRC-16)", async () => {
  await using home = await sharedHome();
  const { id } = await createAgent(home, "work");
  const notes = new Notes();
  const ctrlC = new AbortController();
  const running = runCli(["agent", "start", "--foreground"], home, {
    signal: ctrlC.signal,
    onNote: notes.add,
  });
  await notes.until(/runs on the shared bridge/);
  const first = (await askSharedBridge(home.paths))!;
  assert.deepEqual(first.agents.map((a) => [a.id, a.state]), [[id, "awake"]]);
  Deno.kill(first.pid, "SIGKILL");
  await notes.until(/carries agent "work" again/);
  const second = (await askSharedBridge(home.paths))!;
  assert.notEqual(second.pid, first.pid);
  assert.deepEqual(second.agents.map((a) => a.id), [id]);
  ctrlC.abort();
  const result = await running;
  assert.deepEqual([result.code, result.stdout], [0, 'Stopped "work"\n']);
  const status = await runJson<Status>(["agent", "status"], home);
  assert.deepEqual([status.state, status.services.agent.running], ["stopped", false]);
  // The bridge stays for its linger, a service of its own: the terminal's end is not its end.
  assert.equal(await services.processAlive(second.pid), true);
});
