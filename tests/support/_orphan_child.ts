// Started by a test and then killed: runs a sandbox whose program and a daemon of its own would
// sleep for ever holding the FIFO $HOME/out, so the test sees it close only if the sandbox dies
// with its parent.
import { LinkPaths } from "../../core/base/mod.ts";
import { parseSandboxSpec, planSandbox, resolveSandboxInput, runSandboxed } from "../../sandbox/mod.ts";
import { TEST_IDENTITY } from "./sandbox.ts";

const home = Deno.args[0]!;
const plan = planSandbox(
  await resolveSandboxInput({
    spec: parseSandboxSpec("", "sandbox.toml"),
    paths: new LinkPaths(home),
    harnessHome: `${home}/harness`,
    identity: TEST_IDENTITY,
    command: ["/bin/sh", "-c", 'exec >"$HOME/out"; (setsid sleep 1000 &); echo ready; exec sleep 1000'],
  }),
);
await using sandbox = await runSandboxed(plan, { stdin: "null" });
await sandbox.status;
