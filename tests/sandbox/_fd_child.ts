// Started by a test with descriptor 7 inherited (not close-on-exec): runs a sandbox whose program
// lists the descriptors it holds, then lists from outside those its pid 1 holds (the program may
// not look at pid 1: it is outside the program's Landlock domain).
import { LinkPaths } from "../../core/base/mod.ts";
import { parseSandboxSpec, planSandbox, resolveSandboxInput, runSandboxed } from "../../sandbox/mod.ts";
import { TEST_IDENTITY } from "../support/sandbox.ts";

const home = Deno.args[0]!;
const inherited = await Deno.lstat("/proc/self/fd/7").then(() => "yes", () => "no");
// The glob's own descriptor is gone by the time it is read: only those still open are listed.
const LIST =
  `for f in /proc/self/fd/*; do l=$(readlink $f) && echo "\${f##*/} $l" | sed 's/\\[[0-9]*\\]//'; done`;
const plan = planSandbox(
  await resolveSandboxInput({
    spec: parseSandboxSpec("", "sandbox.toml"),
    paths: new LinkPaths(home),
    harnessHome: `${home}/harness`,
    identity: TEST_IDENTITY,
    command: ["/bin/sh", "-c", `echo "outside-has-7=${inherited}"; ${LIST}; echo ---; read -r _ || true`],
  }),
);
await using sandbox = await runSandboxed(plan, { stdin: "piped", stdout: "piped" });
const out = sandbox.child.stdout.pipeThrough(new TextDecoderStream()).getReader();
let text = "";
while (!text.endsWith("---\n")) text += (await out.read()).value ?? "";
const pid1 = Number((await Deno.readTextFile(`/proc/${sandbox.pid}/task/${sandbox.pid}/children`)).trim());
const held: string[] = [];
for (const entry of Deno.readDirSync(`/proc/${pid1}/fd`)) {
  const target = await Deno.readLink(`/proc/${pid1}/fd/${entry.name}`).catch(() => undefined);
  if (target) held.push(`${entry.name} ${target.replace(/\[[0-9]*\]/, "")}`);
}
held.sort((a, b) => Number(a.split(" ")[0]) - Number(b.split(" ")[0]));
await sandbox.child.stdin.close();
await Deno.stdout.write(new TextEncoder().encode(text + held.map((l) => `${l}\n`).join("")));
Deno.exit((await sandbox.status).code);
