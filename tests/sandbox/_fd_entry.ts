// Started by a test with descriptor 7 inherited (not close-on-exec): runs a sandbox listing the
// descriptors its program and its pid 1 hold.
import { LinkPaths } from "../../core/base/mod.ts";
import { parseSandboxSpec, planSandbox, resolveSandboxInput, runSandboxed } from "../../sandbox/mod.ts";

const home = Deno.args[0]!;
const LIST = (pid: string) =>
  // The glob's own descriptor is gone by the time it is read: only those still open are listed.
  `for f in /proc/${pid}/fd/*; do l=$(readlink $f) && echo "\${f##*/} $l" | sed 's/\\[[0-9]*\\]//'; done`;
const inherited = await Deno.lstat("/proc/self/fd/7").then(() => "yes", () => "no");
const plan = planSandbox(
  await resolveSandboxInput({
    spec: parseSandboxSpec("", "sandbox.toml"),
    paths: new LinkPaths(home),
    harnessHome: `${home}/harness`,
    command: ["/bin/sh", "-c", `echo "outside-has-7=${inherited}"; ${LIST("self")}; echo ---; ${LIST("1")}`],
  }),
);
await using sandbox = await runSandboxed(plan, { stdin: "null" });
Deno.exit((await sandbox.status).code);
