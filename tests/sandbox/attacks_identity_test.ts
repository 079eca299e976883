/**
 * The attack suite, identity and kernel: each test one attempt from inside a real sandbox at what
 * a program run as root could do (SBX-1): being host uid 0, writing /proc/sys, stopping or
 * reading the processes that hold the sandbox open. Run as root here and in CI, and as an
 * ordinary user by tests/sandbox/as_user_test.ts.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { agentFixture, attack, runPlan, sandboxTest, TEST_IDENTITY } from "../support/sandbox.ts";
import { runSandboxed } from "../../sandbox/mod.ts";

const SYS_PTRACE = Deno.build.arch === "aarch64" ? 117 : 101;
/** A perl line trying PTRACE_ATTACH (16) on a pid, saying which came of it. */
const ATTACH = (pid: string) =>
  `perl -e '$r = syscall(${SYS_PTRACE}, 16, ${pid}, 0, 0); print $r < 0 ? "refused\\n" : "attached\\n"'`;

/** Who the program is: root-run, the sandbox's own uid; else the person running the tests. */
const UID = TEST_IDENTITY?.uid ?? Deno.uid();

attack(
  "run as host uid 0 when Link runs as root (SBX-1)",
  () => "id -u; id -g; grep -E '^(Uid|Gid):' /proc/self/status | tr -s '\\t' ' '",
  `${UID}\n${TEST_IDENTITY?.gid ?? Deno.gid()}\nUid: ${UID} ${UID} ${UID} ${UID}\n` +
    `Gid: ${TEST_IDENTITY?.gid ?? Deno.gid()} ${TEST_IDENTITY?.gid ?? Deno.gid()} ` +
    `${TEST_IDENTITY?.gid ?? Deno.gid()} ${TEST_IDENTITY?.gid ?? Deno.gid()}\n`,
);

attack(
  "gain capabilities back: bounding, ambient and inheritable sets are empty, no new privileges",
  () => "grep -E '^(CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs)' /proc/self/status | tr -s '\\t' ' '",
  "CapInh: 0000000000000000\nCapPrm: 0000000000000000\nCapEff: 0000000000000000\n" +
    "CapBnd: 0000000000000000\nCapAmb: 0000000000000000\nNoNewPrivs: 1\n",
);

for (const file of ["vm/swappiness", "kernel/core_pattern", "net/ipv4/ip_forward", "kernel/hostname"]) {
  attack(
    `write /proc/sys/${file}`,
    () =>
      `( cat /proc/sys/${file} > /tmp/was && cat /tmp/was > /proc/sys/${file} ) 2>/dev/null && echo wrote || echo refused`,
    "refused\n",
  );
}

attack(
  "write the kernel's sysrq trigger and read its memory",
  () =>
    "(echo h > /proc/sysrq-trigger) 2>/dev/null && echo wrote || echo refused; " +
    "(head -c 1 /proc/kcore > /dev/null) 2>/dev/null && echo read || echo refused",
  "refused\nrefused\n",
);

attack(
  "ptrace bubblewrap's pid 1, which holds the sandbox open",
  () => ATTACH("1"),
  "refused\n",
);

attack(
  "ptrace Link's launcher, its own parent",
  () => ATTACH("$PPID"),
  "refused\n",
);

attack(
  "stop bubblewrap's pid 1 or Link's launcher with a signal",
  () =>
    "kill -STOP 1 2>/dev/null && echo stopped || echo refused; kill -STOP $PPID 2>/dev/null && echo stopped || echo refused",
  "refused\nrefused\n",
);

attack(
  "read or write pid 1's memory through /proc/1/mem",
  () =>
    "(head -c 1 /proc/1/mem > /dev/null) 2>/dev/null && echo read || echo refused; (echo x > /proc/1/mem) 2>/dev/null && echo wrote || echo refused",
  "refused\nrefused\n",
);

attack(
  "ptrace a child of its own, which it may (its own children stay its to debug)",
  () =>
    `perl -e 'my $pid = fork(); if ($pid == 0) { sleep 30; exit 0 } ` +
    `my $r = syscall(${SYS_PTRACE}, 16, $pid, 0, 0); print $r < 0 ? "refused\\n" : "attached\\n"; kill 9, $pid'`,
  "attached\n",
);

sandboxTest(
  "attack: a root-run program writes root's files in its Home as root's, never as its own (SBX-1)",
  async () => {
    await using fx = await agentFixture();
    await Deno.writeTextFile(join(fx.agentHome, "private.txt"), "root's own\n", { mode: 0o600 });
    const r = await fx.sh(
      `cat "${fx.agentHome}/private.txt"; echo made > "${fx.agentHome}/made.txt"; stat -c %u "${fx.agentHome}/made.txt"`,
    );
    // Inside, what the person owns is the program's own (an idmapped mount); on the disk, the person's.
    assert.deepEqual(r, { code: 0, stdout: `root's own\n${UID}\n`, stderr: "" });
    const made = await Deno.stat(join(fx.agentHome, "made.txt"));
    assert.equal(made.uid, Deno.uid());
  },
);

sandboxTest(
  "attack: stop pid 1 and exit, so the sandbox would never end (a stopped pid 1 never hangs Link)",
  async () => {
    await using fx = await agentFixture();
    const plan = await fx.plan([
      "/bin/sh",
      "-c",
      "kill -STOP 1 2>/dev/null; perl -e 'syscall(" + SYS_PTRACE + ", 16, 1, 0, 0)'; exit 4",
    ]);
    const r = await runPlan(plan);
    assert.equal(r.code, 4);
  },
);

sandboxTest("attack: read the caller's descriptors through its own 0, 1 and 2", async () => {
  await using fx = await agentFixture();
  const plan = await fx.plan([
    "/bin/sh",
    "-c",
    "for fd in 0 1 2; do readlink /proc/self/fd/$fd | sed 's/\\[[0-9]*\\]//'; done",
  ]);
  await using sandbox = await runSandboxed(plan, { stdin: "piped", stdout: "piped", stderr: "null" });
  await sandbox.child.stdin.close();
  const out = await new Response(sandbox.child.stdout).text();
  assert.equal(out, "pipe:\npipe:\n/dev/null\n");
  assert.equal((await sandbox.status).code, 0);
});

/** A relay rule that keeps Link's launcher running beside the program (it relays for it). */
const KEEP_LAUNCHER = (fx: { netDir: string }) => ({
  relays: [{ kind: "tcp-to-unix" as const, port: 3128, socket: join(fx.netDir, "proxy.sock") }],
});

attack(
  "ptrace or stop Link's launcher while it relays for the program (its own parent)",
  () => `${ATTACH("$PPID")}; kill -STOP $PPID 2>/dev/null && echo stopped || echo refused`,
  "refused\nrefused\n",
  KEEP_LAUNCHER,
);

for (const [how, options] of [["relaying nothing", () => ({})], ["beside relays", KEEP_LAUNCHER]] as const) {
  sandboxTest(`the launcher says 127 for a program that is not there, ${how}`, async () => {
    await using fx = await agentFixture();
    const r = await runPlan(await fx.plan(["/no/such/program"], options(fx)));
    assert.equal(r.code, 127);
  });
}
