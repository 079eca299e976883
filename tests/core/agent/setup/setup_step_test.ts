/**
 * One setup step in its sandbox (runSetupStep), with a stand-in adapter program: a step running
 * past its own bound is stopped and named with its stderr's last line, and each stderr line is
 * handed on as it comes (the progress a terminal shows).
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { LinkError, LinkPaths } from "../../../../core/base/mod.ts";
import { runSetupStep } from "../../../../core/agent/setup/mod.ts";
import { RELAY_LAUNCHER, sandboxTest, TEST_IDENTITY } from "../../../support/sandbox.ts";

async function withAdapter(
  body: string,
  fn: (root: string, adapter: string) => Promise<void>,
): Promise<void> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "lnk-setup-step-" }));
  try {
    await Deno.mkdir(join(root, "bin"));
    const adapter = join(root, "bin", "lnk-slow");
    await Deno.writeTextFile(adapter, `#!/bin/sh\ncat >/dev/null\n${body}\n`);
    await Deno.chmod(adapter, 0o755);
    await fn(root, adapter);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

const run = (root: string, adapter: string, extra: { boundMs?: number; onLine?: (l: string) => void }) =>
  runSetupStep({
    paths: new LinkPaths(root),
    harness: "slow",
    adapter: { command: [adapter], dir: dirname(adapter) },
    step: "install",
    input: {},
    home: join(root, "install"),
    network: { hosts: [] },
    identity: TEST_IDENTITY,
    launcher: RELAY_LAUNCHER,
    ...extra,
  });

sandboxTest(
  "a step past its own bound is stopped, naming the adapter, the step and its stderr's last line",
  async () => {
    await withAdapter(
      `echo "unpacking" >&2; echo "still unpacking" >&2; exec sleep 3600`,
      async (root, adapter) => {
        const error = await run(root, adapter, { boundMs: 1_000 }).then(() => undefined, (err) => err);
        assert.ok(error instanceof LinkError);
        assert.equal(error.code, "TIMEOUT");
        assert.match(error.message, /"slow" did not finish `install` within 1 s: still unpacking/);
      },
    );
  },
);

sandboxTest(
  "each stderr line of a step is handed on as it prints it; its answer is read to the schema",
  async () => {
    await withAdapter(
      `echo "fetching 1/2" >&2; echo "fetching 2/2" >&2; echo '{"version":"9.1","changed":true}'`,
      async (root, adapter) => {
        const lines: string[] = [];
        const answer = await run(root, adapter, { onLine: (l) => lines.push(l) });
        assert.deepEqual(lines, ["fetching 1/2", "fetching 2/2"]);
        assert.deepEqual([answer?.version, answer?.changed], ["9.1", true]);
      },
    );
  },
);
