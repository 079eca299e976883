// Started by a test and then killed: runs a sandbox whose program would sleep for ever, its stdout
// the test's pipe, so the test sees the pipe close only if the sandbox dies with its parent.
import { LinkPaths } from "../../core/base/mod.ts";
import { parseSandboxSpec, planSandbox, resolveSandboxInput, runSandboxed } from "../../sandbox/mod.ts";

const home = Deno.args[0]!;
const plan = planSandbox(
  await resolveSandboxInput({
    spec: parseSandboxSpec("", "sandbox.toml"),
    paths: new LinkPaths(home),
    harnessHome: `${home}/harness`,
    command: ["/bin/sh", "-c", "(setsid sleep 1000 &); echo ready; exec sleep 1000"],
  }),
);
await using sandbox = await runSandboxed(plan, { stdin: "null" });
await sandbox.status;
