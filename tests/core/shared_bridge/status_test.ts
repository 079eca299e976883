import assert from "node:assert/strict";
import { services } from "../../../core/agent/mod.ts";
import { runCli, runJson } from "../../support/mod.ts";
import { processTree } from "../../support/agent_processes.ts";
import {
  bridgesLog,
  createAgent,
  prompt,
  sharedHome,
  type Status,
  waitForLog,
} from "../../support/shared_bridge.ts";

Deno.test("lnk agent status on the shared bridge: running, a harness killed reads as died, a message brings it back, stopped (PRC-6)", async () => {
  await using home = await sharedHome();
  const { id } = await createAgent(home, "work");
  const started = await runJson<Status>(["agent", "start"], home);
  assert.deepEqual([started.state, started.bridge], ["running", "shared"]);
  // The harness inside the sandbox the shared bridge runs dies: the bridge sees it, then bubblewrap ends.
  const sandbox = started.services.agent.pid!;
  const harness = (await processTree(sandbox)).filter((p) => p.command.includes("harness mini"));
  Deno.kill(harness.at(-1)!.pid, "SIGKILL");
  await waitForLog(bridgesLog(home), (e) => e.msg === "Harness exited unbidden" && e.agent === id);
  assert.equal(await services.waitForExit(sandbox, 10_000), true);
  const died = await runJson<Status>(["agent", "status"], home);
  assert.equal(died.state, "died");
  assert.match(died.reason!, /^its harness stopped unbidden/);
  const text = await runCli(["agent", "status"], home);
  assert.match(text.stdout, /: DIED \(its harness stopped unbidden/);
  assert.match(
    text.stdout,
    new RegExp(`services: shared bridge running \\(pid ${started.services.bridge.pid}\\), agent died`),
  );
  assert.equal(await prompt(home, { id, port: started.ports.endpoint }, "again"), "mini: again");
  const back = await runJson<Status>(["agent", "status"], home);
  assert.deepEqual([back.state, back.services.bridge.pid], ["running", started.services.bridge.pid]);
  const stopped = await runJson<Status>(["agent", "stop"], home);
  assert.deepEqual([stopped.state, stopped.bridge, stopped.services.bridge.running], [
    "stopped",
    "own",
    false,
  ]);
});
