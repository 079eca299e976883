import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { encodeKey, newAgentKey } from "../../../../core/base/mod.ts";
import { storeSocketPath } from "../../../../core/agent/mod.ts";
import { AGENT_ID, agentFixture, runPlan, sandboxTest } from "../../../support/sandbox.ts";
import { driverCommand } from "../../../support/store_driver.ts";
import { sqliteStorePath } from "../../../../core/agent_bridge/mod.ts";
import { serveStoreBridge } from "../../../../core/agent_bridge/mod.ts";

const CONFIG = fileURLToPath(new URL("../../../../deno.json", import.meta.url));
const INSIDE = fileURLToPath(new URL("./_store_call_child.ts", import.meta.url));

sandboxTest(
  "the harness in its sandbox appends through the store bridge; the driver runs outside and its credential stays there (TRN-14)",
  async () => {
    await using fx = await agentFixture();
    const key = newAgentKey();
    await Deno.writeTextFile(fx.paths.keyFile(AGENT_ID), `${encodeKey(key)}\n`);
    await Deno.mkdir(fx.netDir, { recursive: true, mode: 0o700 });
    await Deno.chmod(fx.netDir, 0o700);
    const db = sqliteStorePath(fx.paths, AGENT_ID);
    const nsFile = join(fx.home, "driver-net");
    const secret = "pg-password-7e2a";
    await using _bridge = await serveStoreBridge({
      agent: { id: AGENT_ID, owner: "local-test-0" },
      key,
      paths: fx.paths,
      driver: {
        kind: "program",
        // The driver notes which network it runs in, then is Link's own SQLite driver.
        command: [
          "sh",
          "-c",
          'readlink /proc/self/ns/net > "$0"; exec "$@"',
          nsFile,
          ...driverCommand("sqlite", db, true),
        ],
        serve: true,
        env: { STORE_PASSWORD: secret },
      },
    });
    const socket = storeSocketPath(fx.paths, AGENT_ID);
    const plan = await fx.plan(
      [
        "deno",
        "run",
        "-A",
        "--cached-only",
        "--config",
        CONFIG,
        INSIDE,
        socket,
        AGENT_ID,
        "local-test-0",
        db,
      ],
      { env: { LNK_TEST_KEY: encodeKey(key) } },
    );
    const run = await runPlan(plan);
    assert.equal(run.code, 0, run.stderr);
    const inside = JSON.parse(run.stdout.trim());
    const event = { type: "message", text: "from inside", request: "r1", at: 1 };
    assert.equal(inside.appended, "ok");
    assert.deepEqual(inside.events, [{ n: 1, event }]);
    assert.equal(inside.database, "NotFound", "the driver's database is not in the sandbox");
    assert.ok(!inside.environment.includes(secret), "the driver's credential is not in the sandbox");
    const outsideNet = await Deno.readLink("/proc/self/ns/net");
    assert.equal((await Deno.readTextFile(nsFile)).trim(), outsideNet, "the driver runs outside");
    assert.notEqual(inside.net, outsideNet, "the harness runs in the sandbox's own network");
  },
);
