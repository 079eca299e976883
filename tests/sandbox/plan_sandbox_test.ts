import assert from "node:assert/strict";
import { LinkPaths } from "../../core/base/mod.ts";
import { parseSandboxSpec, planSandbox, type SandboxInput, type SystemView } from "../../sandbox/mod.ts";

const SYSTEM: SystemView = {
  bwrap: "/usr/bin/bwrap",
  top: [{ path: "/bin", kind: "symlink", target: "usr/bin" }, { path: "/lib64", kind: "folder" }],
  secrets: [{ path: "/etc/shadow", folder: false }, { path: "/run", folder: true }],
};
const HOME = "/home/me";
const paths = new LinkPaths(HOME);
const AGENT = {
  id: "abc123",
  name: "main",
  home: "/home/me/Link/Agents/main/Home",
  agentDir: "/home/me/Link/Agents/main/Agent",
};

function input(specText: string, more: Partial<SandboxInput> = {}): SandboxInput {
  const path = "/home/me/Link/Agents/main/Config/sandbox.toml";
  return {
    spec: parseSandboxSpec(specText, path),
    source: { path, text: specText },
    paths,
    harnessHome: "/home/me/.lnk/agents/abc123/harness",
    command: ["/bin/true"],
    system: SYSTEM,
    ...more,
  };
}

Deno.test("planSandbox() makes every namespace, drops every capability and shows the system read-only (SBX-1, SBX-7)", () => {
  const plan = planSandbox(input("", { env: { CHOSEN: "1" }, launcher: ["lnk", "sandbox", "relay"] }));
  const etc = plan.argv.filter((a, i) => plan.argv[i - 1] === "--ro-bind-try" && a.startsWith("/etc/"));
  assert.ok(!etc.some((p) => /shadow|ssh\/ssh_host|ssl\/private|sudoers/.test(p)));
  const withoutEtc: string[] = [];
  for (let i = 0; i < plan.argv.length; i++) {
    if (plan.argv[i] === "--ro-bind-try" && plan.argv[i + 1]?.startsWith("/etc/")) i += 2;
    else withoutEtc.push(plan.argv[i]!);
  }
  assert.deepEqual(withoutEtc, [
    "/usr/bin/bwrap",
    ...[
      "--unshare-user",
      "--unshare-ipc",
      "--unshare-pid",
      "--unshare-uts",
      "--unshare-cgroup-try",
      "--unshare-net",
    ],
    ...[
      "--disable-userns",
      "--die-with-parent",
      "--new-session",
      "--cap-drop",
      "ALL",
      "--hostname",
      "lnk-sandbox",
    ],
    ...["--ro-bind", "/usr", "/usr", "--symlink", "usr/bin", "/bin", "--ro-bind", "/lib64", "/lib64"],
    ...["--proc", "/proc", "--dev", "/dev", "--size", String(256 * 1024 * 1024), "--tmpfs", "/tmp"],
    ...["--ro-bind", "/proc/sys", "/proc/sys", "--size", String(64 * 1024 * 1024), "--tmpfs", "/dev/shm"],
    ...["--bind", "/home/me/.lnk/agents/abc123/harness", "/home/me/.lnk/agents/abc123/harness"],
    ...["--remount-ro", "/dev", "--remount-ro", "/"],
    ...["--chdir", "/home/me/.lnk/agents/abc123/harness", "--", "lnk", "sandbox", "relay", "--", "/bin/true"],
  ]);
  assert.deepEqual(plan.env, {
    PATH: "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin",
    HOME: "/home/me/.lnk/agents/abc123/harness",
    TMPDIR: "/tmp",
    LANG: "C.UTF-8",
    CHOSEN: "1",
  });
  assert.deepEqual(plan.ensureDirs, ["/home/me/.lnk/agents/abc123/harness"]);
});

Deno.test("planSandbox() keeps the host's network only in host mode (SBX-9)", () => {
  assert.ok(!planSandbox(input('[network]\nmode = "host"\n')).argv.includes("--unshare-net"));
});

Deno.test("planSandbox() refuses a [commands] list, naming its line (GRT-5, SBX-20)", () => {
  assert.throws(() => planSandbox(input('# programs\n[commands]\nallow = ["git"]\n')), {
    name: "LinkError",
    code: "SANDBOX_REFUSED",
    message: 'Cannot start the sandbox: "/home/me/Link/Agents/main/Config/sandbox.toml" line 3: ' +
      "a list of programs cannot be enforced by this sandbox (bubblewrap keeps no list of programs)",
  });
});

Deno.test("planSandbox() refuses chats writable to tools, naming its line (LAY-7)", () => {
  assert.throws(() => planSandbox(input('[files]\n"." = "write"\nchats = "write"\n', { agent: AGENT })), {
    code: "SANDBOX_REFUSED",
    message: /line 3: chats\/ is never writable to a tool/,
  });
});

Deno.test("planSandbox() refuses memory in [files]: the agent reaches it through Link", () => {
  assert.throws(() => planSandbox(input('[files]\nmemory = "read"\n', { agent: AGENT })), {
    code: "SANDBOX_REFUSED",
    message: /line 2: "memory" is not a folder the agent's tools see/,
  });
});

Deno.test("planSandbox() refuses a grant inside what Link hides, and one through a symlink into it (SBX-21)", () => {
  assert.throws(() => planSandbox(input('[paths]\nread = ["~/.lnk/agents/.keys"]\n')), {
    code: "SANDBOX_REFUSED",
    message: /line 2: "~\/.lnk\/agents\/.keys" is inside "\/home\/me\/.lnk"/,
  });
  const realPaths = { "/home/me/innocent": "/home/me/Link/Agents/other/Config" };
  assert.throws(() => planSandbox(input('[paths]\nwrite = ["~/innocent"]\n', { realPaths })), {
    code: "SANDBOX_REFUSED",
    message: /"~\/innocent" is inside "\/home\/me\/Link\/Agents"/,
  });
});

Deno.test("planSandbox() refuses grants of /proc, /dev and /tmp: the sandbox has its own", () => {
  for (const path of ["/proc", "/proc/1", "/dev/sda", "/tmp"]) {
    assert.throws(
      () => planSandbox(input(`[paths]\nread = ["${path}"]\n`)),
      { code: "SANDBOX_REFUSED" },
      path,
    );
  }
});

Deno.test("planSandbox() refuses a team grant for a team it has no folder of (TEAM-11)", () => {
  assert.throws(() => planSandbox(input("[teams.alpha]\nall = true\n")), {
    code: "SANDBOX_REFUSED",
    message: /line 1: the agent is not a member of team "alpha"/,
  });
});

Deno.test("planSandbox() hides Link's places under a grant of ~ and makes them first (TEAM-12)", () => {
  const plan = planSandbox(input('[paths]\nread = ["~"]\n'));
  const hidden = plan.argv.filter((_, i) => plan.argv[i - 1] === "--tmpfs" && plan.argv[i - 3] === "--size");
  assert.deepEqual(hidden.filter((p) => p.startsWith(HOME)), [
    "/home/me/.lnk",
    "/home/me/.config",
    "/home/me/Link/Agents",
    "/home/me/Link/Teams",
    "/home/me/.local/share/systemd",
  ]);
  assert.deepEqual(plan.ensureDirs, [
    "/home/me/.lnk/agents/abc123/harness",
    "/home/me/.lnk",
    "/home/me/.config",
    "/home/me/Link/Agents",
    "/home/me/Link/Teams",
    "/home/me/.local/share/systemd",
  ]);
  const at = (p: string) => plan.argv.lastIndexOf(p);
  assert.ok(
    at("/home/me") < at("/home/me/.lnk") && at("/home/me/.lnk") < at("/home/me/.lnk/agents/abc123/harness"),
  );
});

Deno.test("planSandbox() hides secret system paths under a grant of / (root keeps owning them)", () => {
  const argv = planSandbox(input('[paths]\nread = ["/"]\n')).argv.join(" ");
  assert.match(argv, /--ro-bind \/dev\/null \/etc\/shadow/);
  assert.match(argv, /--tmpfs \/run/);
  assert.doesNotMatch(planSandbox(input("")).argv.join(" "), /\/etc\/shadow/);
});

Deno.test("planSandbox() binds Home and each collection the grants show at its own path, nothing in Home (LAY-2, LAY-3, LAY-6)", () => {
  const plan = planSandbox(
    input('[files]\n"." = "read"\nwork = "write"\ninstructions = "read"\n', { agent: AGENT }),
  );
  assert.deepEqual(agentMounts(plan.argv), [
    "--ro-bind /home/me/Link/Agents/main/Home /home/me/Link/Agents/main/Home",
    "--bind /home/me/Link/Agents/main/Home/work /home/me/Link/Agents/main/Home/work",
    "--ro-bind-try /home/me/Link/Agents/main/Agent/instructions /home/me/Link/Agents/main/Agent/instructions",
  ]);
  assert.deepEqual(plan.ensureDirs, [
    "/home/me/.lnk/agents/abc123/harness",
    "/home/me/Link/Agents/main/Home/work",
  ]);
});

Deno.test("planSandbox() gives Link Harness Agent/chats and its notes in Agent/memory writable, made in Agent/ (LAY-7)", () => {
  const plan = planSandbox(input("", { agent: AGENT, harnessWritesChats: true, harnessWritesNotes: true }));
  assert.deepEqual(agentMounts(plan.argv), [
    "--bind /home/me/Link/Agents/main/Home /home/me/Link/Agents/main/Home",
    "--ro-bind-try /home/me/Link/Agents/main/Agent/instructions /home/me/Link/Agents/main/Agent/instructions",
    "--ro-bind-try /home/me/Link/Agents/main/Agent/skills /home/me/Link/Agents/main/Agent/skills",
    "--bind-try /home/me/Link/Agents/main/Agent/chats /home/me/Link/Agents/main/Agent/chats",
    "--bind-try /home/me/Link/Agents/main/Agent/memory /home/me/Link/Agents/main/Agent/memory",
  ]);
  assert.deepEqual(plan.ensureDirs, [
    "/home/me/.lnk/agents/abc123/harness",
    "/home/me/Link/Agents/main/Agent/chats",
    "/home/me/Link/Agents/main/Agent/memory",
  ]);
});

Deno.test("planSandbox() shows an outside harness all of Home and nothing of Agent/ (LAY-8)", () => {
  const plan = planSandbox(input("", { agent: AGENT, folders: "home", harnessWritesNotes: true }));
  assert.deepEqual(agentMounts(plan.argv), [
    "--bind /home/me/Link/Agents/main/Home /home/me/Link/Agents/main/Home",
  ]);
});

/** The mounts of the agent's folders, in bubblewrap's order, one string each. */
function agentMounts(argv: readonly string[]): string[] {
  const mounts: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (/^--(ro-)?bind(-try)?$/.test(argv[i]!) && argv[i + 2]?.startsWith("/home/me/Link/")) {
      mounts.push(argv.slice(i, i + 3).join(" "));
    }
  }
  return mounts;
}

Deno.test("planSandbox() runs the relays first, then the command", () => {
  const plan = planSandbox(input("", {
    relays: [{ kind: "tcp-to-unix", port: 3128, socket: "/s/proxy.sock" }, {
      kind: "unix-to-tcp",
      socket: "/s/e.sock",
      port: 9,
    }],
    launcher: ["lnk", "sandbox", "relay"],
    command: ["harness", "serve"],
  }));
  assert.deepEqual(plan.argv.slice(plan.argv.indexOf("--") + 1), [
    ...["lnk", "sandbox", "relay", "--tcp", "3128=/s/proxy.sock", "--unix", "/s/e.sock=9", "--"],
    ...["harness", "serve"],
  ]);
});

Deno.test("planSandbox() refuses a variable it cannot pass", () => {
  assert.throws(() => planSandbox(input("", { env: { "A=B": "x" } })), { code: "SANDBOX_REFUSED" });
});
