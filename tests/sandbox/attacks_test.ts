/**
 * The attack suite, files: each test one attempt from inside a real sandbox at what it must not
 * reach or change (SBX-21, GRT-8, LAY-7, LAY-9, SBX-5). The process and network attempts are in
 * attacks_process_test.ts and attacks_network_test.ts.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { roleEnv } from "../../core/base/mod.ts";
import {
  AGENT_ID,
  agentFixture,
  attack,
  LINK_HARNESS,
  OTHER_ID,
  PRELUDE,
  runPlan,
  sandboxTest,
} from "../support/sandbox.ts";

const READ_HOME = { spec: '[paths]\nread = ["~"]\n' };
const DEFAULT_FILES = '[files]\n"." = "write"\ninstructions = "read"\nskills = "read"\nchats = "read"\n';

attack(
  "read the agent's key in ~/.lnk/agents/.keys",
  (fx) => `r ${fx.home}/.lnk/agents/.keys/${AGENT_ID}`,
  (fx) => `denied ${fx.home}/.lnk/agents/.keys/${AGENT_ID}\n`,
  READ_HOME,
);

attack(
  "read its own settings.toml, where --no-sandbox is kept",
  (fx) => `r ${fx.paths.settingsToml(AGENT_ID)}`,
  (fx) => `denied ${fx.paths.settingsToml(AGENT_ID)}\n`,
  READ_HOME,
);

attack(
  "read another agent's settings.toml",
  (fx) => `r ${fx.paths.settingsToml(OTHER_ID)}`,
  (fx) => `denied ${fx.paths.settingsToml(OTHER_ID)}\n`,
  READ_HOME,
);

attack(
  "read ~/.lnk/machine.toml",
  (fx) => `r ${fx.paths.machineToml}`,
  (fx) => `denied ${fx.paths.machineToml}\n`,
  READ_HOME,
);

attack(
  "read the harness's grants in ~/.lnk/harnesses",
  (fx) => `r ${fx.paths.harnessToml("link")}`,
  (fx) => `denied ${fx.paths.harnessToml("link")}\n`,
  READ_HOME,
);

attack(
  "read a team file in ~/.lnk/teams",
  (fx) => `r ${fx.home}/.lnk/teams/alpha.toml`,
  (fx) => `denied ${fx.home}/.lnk/teams/alpha.toml\n`,
  READ_HOME,
);

attack(
  "read its service unit in ~/.config/systemd/user",
  (fx) =>
    `ls -A ${fx.paths.systemdUser} 2>&1 | head -c 0; r ${
      join(fx.paths.systemdUser, `lnk-agent-${AGENT_ID}.service`)
    }`,
  (fx) => `denied ${join(fx.paths.systemdUser, `lnk-agent-${AGENT_ID}.service`)}\n`,
  READ_HOME,
);

attack(
  "read its own Config/sandbox.toml",
  (fx) => `r ${fx.root}/Config/sandbox.toml`,
  (fx) => `denied ${fx.root}/Config/sandbox.toml\n`,
  READ_HOME,
);

attack(
  "read its own Config/spec.toml",
  (fx) => `r ${fx.root}/Config/spec.toml`,
  (fx) => `denied ${fx.root}/Config/spec.toml\n`,
  READ_HOME,
);

attack(
  "read another agent's Home",
  (fx) => `r ${fx.home}/Link/Agents/other/Home/secret.txt`,
  (fx) => `denied ${fx.home}/Link/Agents/other/Home/secret.txt\n`,
  READ_HOME,
);

attack(
  "read another agent's instructions",
  (fx) => `r ${fx.home}/Link/Agents/other/Agent/instructions/agent.md`,
  (fx) => `denied ${fx.home}/Link/Agents/other/Agent/instructions/agent.md\n`,
  READ_HOME,
);

attack(
  "read its own memory/ when its harness keeps no notes there",
  (fx) => `r ${fx.agentDir}/memory/m.md`,
  (fx) => `denied ${fx.agentDir}/memory/m.md\n`,
  READ_HOME,
);

attack(
  "read its own memory/ from an outside harness, which never reaches Agent/ (LAY-8)",
  (fx) => `r ${fx.agentDir}/memory/m.md; r ${fx.agentDir}/chats/telegram:1/0001.json`,
  (fx) => `denied ${fx.agentDir}/memory/m.md\ndenied ${fx.agentDir}/chats/telegram:1/0001.json\n`,
  { spec: '[paths]\nread = ["~"]\n', folders: "home", ...LINK_HARNESS },
);

attack(
  "read its own schedule/ and Config/ beside the folders Link Harness writes",
  (fx) => `r ${fx.agentDir}/schedule/jobs.json; r ${fx.agentDir}/../Config/sandbox.toml; ls -A ${fx.root}`,
  (fx) =>
    `denied ${fx.agentDir}/schedule/jobs.json\ndenied ${fx.agentDir}/../Config/sandbox.toml\nAgent\nHome\n`,
  LINK_HARNESS,
);

sandboxTest("attack: make a folder in Agent/ beside the collections Link Harness writes", async () => {
  await using fx = await agentFixture();
  const r = await fx.sh(
    `mkdir ${fx.agentDir}/schedule ${fx.agentDir}/evil 2>/dev/null; echo done`,
    LINK_HARNESS,
  );
  assert.equal(r.stdout, "done\n");
  // Agent/ inside is bubblewrap's own folder, never bound: nothing made in it comes out.
  const names: string[] = [];
  for await (const entry of Deno.readDir(fx.agentDir)) names.push(entry.name);
  assert.deepEqual(names.sort(), ["chats", "instructions", "memory", "schedule", "skills"]);
  assert.deepEqual(await Deno.readTextFile(join(fx.agentDir, "schedule", "jobs.json")), "[]\n");
});

attack(
  "reach another agent's sockets in ~/.lnk/agents/.net",
  (fx) => `ls -A ${fx.paths.netRoot}`,
  `${AGENT_ID}\n`,
  READ_HOME,
);

attack(
  "read ~/.ssh with no grant (SBX-1)",
  (fx) => `r ${fx.home}/.ssh/id_ed25519`,
  (fx) => `denied ${fx.home}/.ssh/id_ed25519\n`,
);

attack("read /etc/shadow, which root's uid would own", () => "r /etc/shadow", "denied /etc/shadow\n");

// /root holds only the way to Deno's cache when that lives there (read-only, for Link's own roles).
attack(
  "read /root and /home",
  () => "ls -A /root 2>/dev/null | grep -vx .cache; ls -A /home 2>/dev/null; echo end",
  "end\n",
);

attack(
  "list ~/Link/Teams beyond the granted team (TEAM-12)",
  (fx) => `ls -A ${fx.home}/Link/Teams`,
  "alpha\n",
  (fx) => ({
    spec: '[paths]\nread = ["~"]\n[teams.alpha]\nall = true\n',
    teams: { alpha: join(fx.home, "Link", "Teams", "alpha") },
  }),
);

attack(
  "write a folder of the team it only reads (TEAM-11)",
  (fx) => `w ${fx.home}/Link/Teams/alpha/docs/x`,
  (fx) => `denied ${fx.home}/Link/Teams/alpha/docs/x\n`,
  (fx) => ({
    spec: '[teams.alpha]\nread = ["docs"]\n',
    teams: { alpha: join(fx.home, "Link", "Teams", "alpha") },
  }),
);

sandboxTest("attack: write every file that decides the sandbox (GRT-8)", async () => {
  await using fx = await agentFixture();
  const targets = [
    `${fx.root}/Config/sandbox.toml`,
    `${fx.root}/Config/spec.toml`,
    fx.paths.settingsToml(AGENT_ID),
    fx.paths.machineToml,
    fx.paths.harnessToml("link"),
    join(fx.paths.systemdUser, `lnk-agent-${AGENT_ID}.service`),
    join(fx.paths.systemdUser, "evil.service"),
  ];
  await fx.plan(["true"], READ_HOME); // writes the sandbox file first
  const before = await Promise.all(targets.map((t) => Deno.readTextFile(t).catch(() => "(none)")));
  const r = await fx.sh(targets.map((t) => `w ${t}`).join("; "), READ_HOME);
  assert.equal(r.stdout, targets.map((t) => `denied ${t}\n`).join(""));
  assert.deepEqual(await Promise.all(targets.map((t) => Deno.readTextFile(t).catch(() => "(none)"))), before);
});

attack(
  "override its service unit with a drop-in in ~/.local/share/systemd/user (GRT-8)",
  (fx) =>
    `mkdir -p ${fx.home}/.local/share/systemd/user/lnk-agent-${AGENT_ID}.service.d 2>/dev/null || echo denied`,
  "denied\n",
  { spec: '[paths]\nwrite = ["~"]\n' },
);

attack(
  "write instructions/ (LAY-5)",
  (fx) => `w ${fx.agentDir}/instructions/agent.md; w ${fx.agentDir}/instructions/new.md`,
  (fx) => `denied ${fx.agentDir}/instructions/agent.md\ndenied ${fx.agentDir}/instructions/new.md\n`,
  LINK_HARNESS,
);

attack(
  "write chats/ as a tool (LAY-7)",
  (fx) => `w "${fx.agentDir}/chats/telegram:1/0002.json"`,
  (fx) => `denied ${fx.agentDir}/chats/telegram:1/0002.json\n`,
);

sandboxTest(
  "attack: write chats/ and memory/ through run's commands in Link Harness's sandbox (LAY-7)",
  async () => {
    await using fx = await agentFixture();
    const entry = new URL("./_confine_child.ts", import.meta.url).pathname;
    const script =
      `${PRELUDE}cd ${fx.agentDir}; w chats/x; w "chats/telegram:1/0002.json"; w memory/m.md; w memory/n.md;
    mv chats/telegram:1 chats/gone 2>/dev/null || echo no-move; w ${fx.agentHome}/work/ok`;
    const r = await runPlan(
      await fx.plan([Deno.execPath(), "run", "-A", entry, fx.agentDir, script], LINK_HARNESS),
    );
    assert.deepEqual(r, {
      code: 0,
      stdout: "denied chats/x\ndenied chats/telegram:1/0002.json\ndenied memory/m.md\ndenied memory/n.md\n" +
        `no-move\nwrote ${fx.agentHome}/work/ok\nharness wrote chats/harness.json\n`,
      stderr: "",
    });
    assert.equal(await Deno.readTextFile(join(fx.agentDir, "memory", "m.md")), "memory\n");
    assert.equal(await Deno.readTextFile(join(fx.agentDir, "chats", "harness.json")), "{}\n");
  },
);

attack(
  "rename the read-only instructions/ away and put its own in place",
  (fx) =>
    `cd ${fx.agentDir}; mv instructions old 2>/dev/null || echo no-move; rmdir instructions 2>/dev/null || echo no-rmdir;
   rm -rf instructions 2>/dev/null || echo no-remove; cat instructions/agent.md`,
  "no-move\nno-rmdir\nno-remove\n# main\n",
  LINK_HARNESS,
);

attack(
  "hard-link a read-only instruction into writable Home to write it (LAY-9)",
  (fx) =>
    `ln ${fx.agentDir}/instructions/agent.md ${fx.agentHome}/work/agent.md 2>/dev/null || echo no-link;
   r ${fx.agentDir}/instructions/agent.md`,
  "no-link\n# main\n",
  LINK_HARNESS,
);

attack(
  "hard-link a chat into its notes, where Link Harness writes",
  (fx) =>
    `ln "${fx.agentDir}/chats/telegram:1/0001.json" ${fx.agentDir}/memory/c.md 2>/dev/null || echo no-link`,
  "no-link\n",
  LINK_HARNESS,
);

attack(
  "hard-link /etc/passwd into Home",
  (fx) => `ln /etc/passwd ${fx.agentHome}/pw 2>/dev/null || echo no-link`,
  "no-link\n",
);

attack(
  "follow a symlink it made in Home to the keys",
  (fx) => `ln -s ${fx.home}/.lnk/agents/.keys/${AGENT_ID} ${fx.agentHome}/k && r ${fx.agentHome}/k`,
  (fx) => `denied ${fx.agentHome}/k\n`,
);

sandboxTest("attack: follow a symlink planted in Home to Config/sandbox.toml", async () => {
  await using fx = await agentFixture();
  await Deno.symlink(join(fx.root, "Config", "sandbox.toml"), join(fx.agentHome, "grants.toml"));
  const r = await fx.sh(`r ${fx.agentHome}/grants.toml; w ${fx.agentHome}/grants.toml`, {
    spec: DEFAULT_FILES,
  });
  assert.equal(r.stdout, `denied ${fx.agentHome}/grants.toml\ndenied ${fx.agentHome}/grants.toml\n`);
  assert.equal(await Deno.readTextFile(join(fx.root, "Config", "sandbox.toml")), DEFAULT_FILES);
});

attack(
  "reach hidden files through /proc/1/root",
  (fx) => `r /proc/1/root${fx.paths.machineToml}`,
  (fx) => `denied /proc/1/root${fx.paths.machineToml}\n`,
  READ_HOME,
);

attack("create a file at the root of the sandbox", () => "w /evil", "denied /evil\n");

attack("write into /usr/bin", () => "w /usr/bin/evil", "denied /usr/bin/evil\n");

attack("write /etc/passwd", () => "w /etc/passwd", "denied /etc/passwd\n");

attack(
  "write Deno's cache, shared with every install (SBX-5)",
  () => 'w "$DENO_DIR/evil"',
  () => `denied ${roleEnv().DENO_DIR}/evil\n`,
);

attack(
  "write Link's own source",
  () => `w ${new URL("../../main.ts", import.meta.url).pathname}`,
  () => `denied ${new URL("../../main.ts", import.meta.url).pathname}\n`,
);

attack(
  "remount a read-only folder writable",
  (fx) => `mount -o remount,rw ${fx.agentDir}/instructions 2>/dev/null || echo no-remount`,
  "no-remount\n",
  LINK_HARNESS,
);

attack(
  "mount a tmpfs over Home",
  (fx) => `mount -t tmpfs none ${fx.agentHome} 2>/dev/null || echo no-mount`,
  "no-mount\n",
);

attack("chroot out of the view", () => "chroot / true 2>/dev/null || echo no-chroot", "no-chroot\n");

attack(
  "use a host device in /dev",
  () => "ls /dev/sda /dev/kmsg /dev/mem /dev/vda 2>/dev/null; w /dev/evil",
  "denied /dev/evil\n",
);

attack("read /sys", () => "ls /sys 2>/dev/null || echo no-sys", "no-sys\n");

// The sandbox's own UTS namespace may take a name; the machine's never changes.
attack(
  "write /proc/sysrq-trigger",
  () => "w /proc/sysrq-trigger",
  "denied /proc/sysrq-trigger\n",
);

sandboxTest("attack: change the machine's hostname through /proc/sys/kernel/hostname", async () => {
  await using fx = await agentFixture();
  const before = Deno.hostname();
  const r = await fx.sh("uname -n; (echo evil > /proc/sys/kernel/hostname) 2>/dev/null; echo done");
  assert.deepEqual([r.stdout, Deno.hostname()], ["lnk-sandbox\ndone\n", before]);
});

attack(
  "find the X11 socket in /tmp/.X11-unix",
  () => "ls -A /tmp/.X11-unix 2>/dev/null || echo no-x11",
  "no-x11\n",
);

attack(
  "fill /dev/shm past its size",
  () => "(head -c 3000000 /dev/zero > /dev/shm/big) 2>/dev/null || echo full",
  "full\n",
  {
    shmSize: 1024 * 1024,
  },
);
