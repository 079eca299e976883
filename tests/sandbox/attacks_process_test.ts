/**
 * The attack suite, processes: each test one attempt from inside a real sandbox at the processes,
 * privileges and terminal outside it (its own PID, user, IPC and UTS namespaces, a new session,
 * every capability dropped, no new privileges).
 */
import assert from "node:assert/strict";
import { agentFixture, attack, NO_BWRAP, orphanSandbox, OTHER_ID, sandboxTest } from "../support/sandbox.ts";

const SYS_PTRACE = Deno.build.arch === "aarch64" ? 117 : 101;

attack(
  "signal a process outside by its pid",
  () => `kill -0 ${Deno.pid} 2>/dev/null || echo no-such-process`,
  "no-such-process\n",
);

attack(
  "see this machine's processes in /proc",
  () => `test -e /proc/${Deno.pid} || echo hidden; basename "$(tr '\\0' '\\n' < /proc/1/cmdline | head -1)"`,
  "hidden\nbwrap\n",
);

attack(
  "read a process's environment outside through /proc",
  () => `r /proc/${Deno.pid}/environ`,
  () => `denied /proc/${Deno.pid}/environ\n`,
);

attack(
  "ptrace a process outside",
  () =>
    `perl -e '$r = syscall(${SYS_PTRACE}, 16, ${Deno.pid}, 0, 0); print $r < 0 ? "refused\\n" : "attached\\n"'`,
  "refused\n",
);

attack(
  "make a user namespace inside (unshare -U)",
  () => "unshare -U true 2>/dev/null || echo refused",
  "refused\n",
);

attack(
  "make a network namespace as uid 0 inside (unshare -n)",
  () => "unshare -n true 2>/dev/null || echo refused",
  "refused\n",
);

attack(
  "make a mount namespace as uid 0 inside (unshare -m)",
  () => "unshare -m true 2>/dev/null || echo refused",
  "refused\n",
);

attack(
  "set the hostname with hostname(1)",
  () => "hostname evil 2>/dev/null || echo refused; uname -n",
  "refused\nlnk-sandbox\n",
);

attack(
  "gain privileges through a setuid program",
  () => "grep NoNewPrivs /proc/self/status; su -c true root </dev/null >/dev/null 2>&1 || echo refused",
  "NoNewPrivs:\t1\nrefused\n",
);

attack(
  "become another user (setuid 1000)",
  () => `perl -e '$r = syscall(105, 1000); print $r < 0 ? "refused\\n" : "became\\n"'`,
  "refused\n",
);

attack(
  "give a file in Home to another user (chown)",
  (fx) => `chown 1000 ${fx.agentHome}/notes.txt 2>/dev/null || echo refused`,
  "refused\n",
);

attack("make a device node (mknod)", () => "mknod /tmp/mem c 1 1 2>/dev/null || echo refused", "refused\n");

attack(
  "open a raw socket",
  () => `perl -MSocket -e 'socket(S, PF_INET, SOCK_RAW, 1) and print "open\\n" or print "refused\\n"'`,
  "refused\n",
);

sandboxTest("attack: read the caller's secret variables through /proc/1/environ", async () => {
  await using fx = await agentFixture();
  Deno.env.set("LNK_ATTACK_SECRET", "s3cret-value");
  try {
    const r = await fx.sh(
      "cat /proc/1/environ /proc/self/environ | tr '\\0' '\\n' | grep -c s3cret || echo none",
    );
    assert.equal(r.stdout, "0\nnone\n");
  } finally {
    Deno.env.delete("LNK_ATTACK_SECRET");
  }
});

sandboxTest("attack: keep running after the sandbox ends, by a daemon of its own", async () => {
  await using fx = await agentFixture();
  // The daemon holds stdout: runPlan ends only once the PID namespace took it down with the rest.
  const r = await fx.sh("(setsid sleep 1000 >&1 &); echo started");
  assert.deepEqual(r, { code: 0, stdout: "started\n", stderr: "" });
});

sandboxTest("attack: outlive the process that started it (--die-with-parent)", async () => {
  // The program and a daemon of its own hold a FIFO in its home open: the test's read of it ends
  // only once every writer is gone, so only if the sandbox dies with the process that started it.
  await using orphan = await orphanSandbox();
  orphan.parent.kill("SIGKILL");
  assert.deepEqual(await orphan.out.read(), { done: true, value: undefined });
  assert.equal((await orphan.parent.status).signal, "SIGKILL");
});

const NO_SCRIPT =
  (await new Deno.Command("sh", { args: ["-c", "command -v script"], stdout: "null" }).output()).success
    ? undefined
    : "script(1) from util-linux, which gives the sandbox a terminal, is not installed";
if (NO_SCRIPT) {
  // deno-lint-ignore no-console -- the reason an ignored test did not run must be seen.
  console.log(`TIOCSTI attack ignored: ${NO_SCRIPT}`);
}

Deno.test({
  name: "attack: inject keystrokes into the terminal with TIOCSTI",
  ignore: NO_BWRAP !== undefined || NO_SCRIPT !== undefined,
}, async () => {
  await using fx = await agentFixture();
  const plan = await fx.plan([
    "perl",
    "-e",
    '$c = "x"; ioctl(STDIN, 0x5412, $c) ? print "injected\\n" : print "refused $!\\n"',
  ]);
  for (const dir of plan.ensureDirs) await Deno.mkdir(dir, { recursive: true });
  // script(1) gives the sandbox a terminal on stdin; its new session keeps it from injecting.
  const quoted = plan.argv.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  const child = new Deno.Command("script", {
    args: ["-qec", quoted, "/dev/null"],
    clearEnv: true,
    env: plan.env,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const out = await child.output();
  assert.match(new TextDecoder().decode(out.stdout), /refused/);
  assert.doesNotMatch(new TextDecoder().decode(out.stdout), /injected/);
});

attack(
  "write the home of another agent's harness",
  (fx) => `w ${fx.paths.agentState(OTHER_ID)}/harness/x`,
  (fx) => `denied ${fx.paths.agentState(OTHER_ID)}/harness/x\n`,
);
