import assert from "node:assert/strict";
import { join } from "node:path";
import { readRunnerFile, runnerFilePath } from "../../../core/scheduler/mod.ts";
import { sendSocketPath, services } from "../../../core/agent/mod.ts";
import { runJson } from "../../support/mod.ts";
import {
  bridgesLog,
  commandOf,
  createAgent,
  setRun,
  sharedHome,
  type Status,
  waitForLog,
} from "../../support/shared_bridge.ts";
import { askSharedBridge } from "../../../core/agent/sharing/mod.ts";

const PARIS = "Europe/Paris";
const NEW_YORK = "America/New_York";

Deno.test("two agents in two time zones give one shared bridge and two runners; moving one's zone updates the files and restarts no runner (PRC-6, PRC-7, U-47)", async () => {
  await using home = await sharedHome();
  const a = await createAgent(home, "alpha", { zone: NEW_YORK });
  const b = await createAgent(home, "beta", { zone: PARIS });
  await runJson<Status>(["agent", "start", "--agent", "alpha"], home);
  const started = await runJson<Status>(["agent", "start", "--agent", "beta"], home);
  const bridge = (await askSharedBridge(home.paths))!;
  assert.equal(bridge.pid, started.services.bridge.pid);
  assert.deepEqual(bridge.runners.map((r) => r.zone), [NEW_YORK, PARIS]);
  const paris = bridge.runners.find((r) => r.zone === PARIS)!.pid;
  const newYork = bridge.runners.find((r) => r.zone === NEW_YORK)!.pid;
  for (const { zone, pid } of bridge.runners) {
    assert.match(await commandOf(pid), new RegExp(`scheduler runner --tz ${zone} --with-parent`));
    // Its times are its process's zone, set as it started.
    const environ = (await Deno.readTextFile(`/proc/${pid}/environ`)).split("\0");
    assert.ok(environ.includes(`TZ=${zone}`));
  }
  assert.deepEqual(await readRunnerFile(runnerFilePath(home.paths, PARIS), PARIS), {
    zone: PARIS,
    agents: [{ id: b.id, way_in: sendSocketPath(home.paths, b.id) }],
  });
  await setRun(a.specPath, { zone: PARIS });
  const both = [a.id, b.id].sort();
  await waitForLog(
    bridgesLog(home),
    (e) =>
      e.msg === "Runner agents" && e.zone === PARIS &&
      JSON.stringify([...e.agents as string[]].sort()) === JSON.stringify(both),
  );
  await waitForLog(bridgesLog(home), (e) => e.msg === "Scheduler runner ended: its zone has no agent left");
  const after = (await askSharedBridge(home.paths))!;
  assert.deepEqual(after.runners, [{ zone: PARIS, pid: paris }]);
  assert.deepEqual(after.agents.map((x) => [x.id, x.zone]).sort(), [[a.id, PARIS], [b.id, PARIS]].sort());
  assert.deepEqual(await readRunnerFile(runnerFilePath(home.paths, PARIS), PARIS), {
    zone: PARIS,
    agents: both.map((id) => ({ id, way_in: sendSocketPath(home.paths, id) })),
  });
  const files = await Array.fromAsync(Deno.readDir(join(home.paths.lnk, "runners")));
  assert.deepEqual(files.map((f) => f.name), ["Europe%2FParis.json"]);
  assert.equal(await services.processAlive(paris), true);
  assert.equal(await services.waitForExit(newYork, 5000), true);
});
