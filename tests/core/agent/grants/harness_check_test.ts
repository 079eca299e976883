import assert from "node:assert/strict";
import { join } from "node:path";
import { bindKey, updateSettings } from "../../../../core/agent/mod.ts";
import * as grants from "../../../../core/agent/grants/mod.ts";
import { tempHome } from "../../../support/mod.ts";
import { contextOf, newAgent, NO_NETWORK, RELAY_LAUNCHER, sandboxTest } from "./_support.ts";
import { cgroupPlaces } from "../../../../sandbox/cgroups.ts";
import { lnkAsUser, NO_OTHER_USER, userHome } from "../../../support/sandbox_as_user.ts";
import { SANDBOX_UIDS } from "../../../../core/spec/mod.ts";
import { runsAsRoot } from "../../../../core/spec/mod.ts";

const OPTIONS = { launcher: RELAY_LAUNCHER, modelCandidates: [], proxy: NO_NETWORK };

type Row = [check: string, expected: string, result: string, ok: boolean, gap?: true];

/** What holds processes (pids) and memory here: the cgroup Link makes as root, else rlimits. */
const PLACES = Deno.uid() === 0 ? await cgroupPlaces() : [];
const heldBy = (controller: "pids" | "memory") =>
  PLACES.some((p) => p.version === 2 && p.controllers.includes(controller))
    ? "cgroup v2"
    : PLACES.some((p) => p.controllers.includes(controller))
    ? "cgroup v1"
    : undefined;

/** The confinement rows with the default [limits], as this machine holds them. */
const CONFINEMENT: Row[] = [
  ["setuid and setgid bits (chmod u+s, g+s)", "refused", "refused", true],
  ["device nodes (mknod)", "refused", "refused (EPERM)", true],
  [
    "processes, all its tasks together ([limits] processes)",
    "at most 1024",
    heldBy("pids")
      ? `at most 1024 (${heldBy("pids")})`
      : "at most 1024 beyond its user's other tasks (rlimit)",
    true,
  ],
  [
    "memory, all its processes together ([limits] memory)",
    "at most 4 GiB",
    heldBy("memory") ? `at most 4 GiB (${heldBy("memory")})` : "at most 4 GiB a process (rlimit)",
    true,
  ],
  ["the size of one file ([limits] file_size)", "at most 4 GiB", "at most 4 GiB (rlimit)", true],
];

/** The rows as tuples, those about your network left out: whether this machine has one varies. */
function rowsOf(check: grants.HarnessCheck): Row[] {
  return check.rows
    .filter((r) => !/your network/.test(r.check))
    .map((r) => [r.check, r.expected, r.result, r.ok, ...(r.gap ? [true as const] : [])] as Row);
}

sandboxTest(
  "harnessCheck() with the defaults: internet via the proxy, and home, Link's files, browser, other ports and LAN denied (SBX-2, SBX-21, GRT-8)",
  async () => {
    await using home = await tempHome();
    const agent = await newAgent(home);
    await newAgent(home, "other");
    await bindKey(home.paths, agent.id);
    await Deno.mkdir(home.paths.systemdUser, { recursive: true });
    await Deno.writeTextFile(join(home.paths.systemdUser, `lnk-agent-${agent.id}.service`), "[Service]\n");
    await Deno.mkdir(join(home.path, ".ssh"));
    await Deno.writeTextFile(join(home.path, ".ssh", "id_ed25519"), "PRIVATE KEY\n");
    const check = await grants.harnessCheck(contextOf(home), agent, OPTIONS);
    // As root, the first agent's sandbox is the first uid of Link's range; as a person, the person.
    const who = runsAsRoot() ? `uid ${SANDBOX_UIDS.first} (its own)` : `uid ${Deno.uid()} (yours)`;
    assert.deepEqual(rowsOf(check), [
      ["not host uid 0", who, who, true],
      ["capabilities", "none, no new privileges", "none, no new privileges", true],
      ["/proc/sys (kernel settings)", "read-only", "read-only", true],
      ["descriptors 0, 1, 2", "Link's pipes or /dev/null", "Link's pipes or /dev/null", true],
      ["pid 1 and Link's launcher (ptrace)", "refused", "refused", true],
      ["its own home", "writable", "writable", true],
      ["your home (~)", "hidden", "hidden", true],
      ["~/.lnk (settings, keys, harness grants)", "hidden", "hidden", true],
      ["~/.config (service units)", "hidden", "hidden", true],
      ["Config/ (its grants and spec)", "hidden", "hidden", true],
      ["other agents' folders (1 other)", "hidden", "hidden", true],
      ["Agent/ schedule (reached through Link)", "hidden", "hidden", true],
      ["memory/ (its notes, written by Link Harness)", "writable", "writable", true],
      ['Home ([files] ".")', "writable", "writable", true],
      ["instructions/ ([files])", "read-only", "read-only", true],
      ["skills/ ([files])", "read-only", "read-only", true],
      ["chats/ (written by Link Harness; its tools only read)", "writable", "writable", true],
      [
        "the internet through its proxy (example.com)",
        "allowed by the proxy",
        "allowed by the proxy (no network here)",
        true,
      ],
      [
        "this machine through its proxy",
        "refused by the proxy",
        "refused by the proxy (address-forbidden); refused by the proxy (name-forbidden)",
        true,
      ],
      ["other ports of this machine, directly", "refused", "refused", true],
      ["the network as it is (interfaces)", "loopback only", "loopback only", true],
      ["1.1.1.1:443, ignoring the proxy", "no route", "no route", true],
      ["browser, X11 and D-Bus sockets", "none reachable", "none reachable (7 tried)", true],
      ["model key (OPENROUTER_API_KEY)", "none set", "not set inside", true],
      ...CONFINEMENT,
      ["protected places (.git/config, .git/hooks, .vscode)", "read-only", "read-only", true],
      ["chats/ (as its tools and run's commands see it)", "read-only", "read-only", true],
    ]);
    const lan = check.rows.filter((r) => /your network/.test(r.check));
    assert.ok(
      lan.length >= 1 && lan.every((r) => r.ok && r.expected !== "open (host mode)"),
      JSON.stringify(lan),
    );
    assert.equal(check.ok, true);
    // Every canary and file the check made is gone.
    const left = await Array.fromAsync(Deno.readDir(home.path));
    assert.deepEqual(left.map((e) => e.name).filter((n) => n.startsWith(".lnk-check")), []);
    assert.deepEqual(await Array.fromAsync(Deno.readDir(home.paths.netRoot)), []);
  },
);

sandboxTest(
  "harnessCheck() finds each grant holding: [files], [paths], [localhost], [lan], a list of hosts, the wired key (SBX-11, SBX-12, SBX-16)",
  async () => {
    await using home = await tempHome();
    const shared = await Deno.realPath(await Deno.makeTempDir({ prefix: "lnk-shared-" }));
    const docs = await Deno.realPath(await Deno.makeTempDir({ prefix: "lnk-docs-" }));
    using listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = listener.addr.port;
    try {
      const agent = await newAgent(home, "main", ["--model", "gpt-4.1-nano"]);
      home.env.set("OPENAI_API_KEY", "sk-never-inside");
      const ctx = contextOf(home);
      await grants.changeGrants(ctx, agent, { host: ["*"], files: ["instructions"] }, "deny");
      await grants.changeGrants(ctx, agent, {
        host: ["api.example.com"],
        files: ["work=read"],
        read: [docs],
        write: [shared],
        port: [String(port)],
        "lan-host": ["nas.local"],
      }, "allow");
      const check = await grants.harnessCheck(ctx, agent, OPTIONS);
      const wanted = [
        'Home ([files] ".")',
        "instructions/ ([files])",
        "work/ ([files])",
        `${docs} ([paths] read)`,
        `${shared} ([paths] write)`,
        "the internet through its proxy (api.example.com)",
        "a host it does not list, through its proxy",
        "granted LAN host nas.local ([lan])",
        `granted port ${port} ([localhost])`,
        "model key (OPENAI_API_KEY)",
      ];
      assert.deepEqual(rowsOf(check).filter((r) => wanted.includes(r[0])), [
        ['Home ([files] ".")', "writable", "writable", true],
        ["instructions/ ([files])", "hidden", "hidden", true],
        ["work/ ([files])", "read-only", "read-only", true],
        [`${docs} ([paths] read)`, "read-only", "read-only", true],
        [`${shared} ([paths] write)`, "writable", "writable", true],
        [
          "the internet through its proxy (api.example.com)",
          "allowed by the proxy",
          "allowed by the proxy (no network here)",
          true,
        ],
        [
          "a host it does not list, through its proxy",
          "refused by the proxy",
          "refused by the proxy (host-not-allowed)",
          true,
        ],
        [
          "granted LAN host nas.local ([lan])",
          "allowed by the proxy",
          "allowed by the proxy (no network here)",
          true,
        ],
        [`granted port ${port} ([localhost])`, "connected", "connected", true],
        ["model key (OPENAI_API_KEY)", "placeholder only (the proxy adds it)", "placeholder only", true],
      ]);
      assert.equal(check.ok, true, JSON.stringify(check.rows.filter((r) => !r.ok)));
    } finally {
      await Deno.remove(shared, { recursive: true });
      await Deno.remove(docs, { recursive: true });
    }
  },
);

sandboxTest('harnessCheck() with [network] mode = "host" lists the gaps it opens (SBX-9)', async () => {
  await using home = await tempHome();
  const agent = await newAgent(home);
  await grants.changeGrants(contextOf(home), agent, { "network-mode": "host" }, "allow");
  const check = await grants.harnessCheck(contextOf(home), agent, OPTIONS);
  const gaps = rowsOf(check).filter((r) => r[4]).map((r) => [r[0], r[1], r[3]]);
  assert.deepEqual(gaps, [
    ["other ports of this machine, directly", "open (host mode)", true],
    ["the network as it is (interfaces)", "present (host mode)", true],
    ["1.1.1.1:443, with no proxy", "not stopped by the sandbox (host mode)", true],
    ["X11's abstract socket and every loopback port", "open (host mode)", true],
  ]);
  assert.equal(check.rows.some((r) => r.check.includes("through its proxy")), false);
  assert.deepEqual(check.rows.find((r) => r.check.startsWith("browser"))?.result, "none reachable (5 tried)");
  assert.deepEqual([check.network, check.ok], ["host", true]);
});

sandboxTest(
  "harnessCheck() shows a harness from outside Link all of Home and none of Agent/ (LAY-8)",
  async () => {
    await using home = await tempHome();
    const agent = await updateSettings(
      home.paths,
      (await newAgent(home)).id,
      (s) => ({ ...s, harness: "hermes" }),
    );
    const check = await grants.harnessCheck(contextOf(home), agent, OPTIONS);
    assert.deepEqual(rowsOf(check).filter((r) => /Home|Agent\//.test(r[0])), [
      ["Home (all of it: a harness from outside Link)", "writable", "writable", true],
      ["Agent/ (out of an outside harness's reach)", "hidden", "hidden", true],
    ]);
    assert.equal(check.ok, true);
  },
);

sandboxTest(
  "harnessCheck() judges outside: a probe that says everything got through fails every denial",
  async () => {
    await using home = await tempHome();
    const agent = await newAgent(home);
    const liar = `const line = await new Response(Deno.stdin.readable).text();
    console.log(JSON.stringify(JSON.parse(line).map(() => ({ done: true, detail: "lie", list: ["eth0 10.0.0.2"] }))));`;
    const check = await grants.harnessCheck(contextOf(home), agent, {
      ...OPTIONS,
      probeCommand: [Deno.execPath(), "eval", liar],
    });
    const failed = check.rows.filter((r) => !r.ok).map((r) => r.check);
    assert.deepEqual(failed.filter((c) => !/your network/.test(c)), [
      "not host uid 0",
      "capabilities",
      "/proc/sys (kernel settings)",
      "descriptors 0, 1, 2",
      "pid 1 and Link's launcher (ptrace)",
      "its own home",
      "memory/ (its notes, written by Link Harness)",
      'Home ([files] ".")',
      "instructions/ ([files])",
      "skills/ ([files])",
      "chats/ (written by Link Harness; its tools only read)",
      "this machine through its proxy",
      "other ports of this machine, directly",
      "the network as it is (interfaces)",
      "1.1.1.1:443, ignoring the proxy",
      "browser, X11 and D-Bus sockets",
      // A probe cannot say a bit was set that is not: the file outside is looked at, and the answer must be a refusal.
      "setuid and setgid bits (chmod u+s, g+s)",
      ...(heldBy("pids") ? [] : ["processes, all its tasks together ([limits] processes)"]),
      ...(heldBy("memory") ? [] : ["memory, all its processes together ([limits] memory)"]),
      "the size of one file ([limits] file_size)",
      "protected places (.git/config, .git/hooks, .vscode)",
      "chats/ (as its tools and run's commands see it)",
    ]);
    assert.equal(check.ok, false);
  },
);

sandboxTest(
  "harnessCheck() finds another agent's Home hidden when it is kept outside ~/Link (SBX-21)",
  async () => {
    await using home = await tempHome();
    const elsewhere = join(home.path, "src", "project");
    const agent = await newAgent(home);
    await newAgent(home, "other", ["--files", elsewhere]);
    const check = await grants.harnessCheck(contextOf(home), agent, OPTIONS);
    assert.deepEqual(check.rows.find((r) => r.check.startsWith("other agents")), {
      check: "other agents' folders (1 other)",
      expected: "hidden",
      result: "hidden",
      ok: true,
    });
    // Nor can a grant show it: `lnk agent allow` refuses, naming the line, before anything is written.
    await assert.rejects(grants.changeGrants(contextOf(home), agent, { read: [elsewhere] }, "allow"), {
      name: "LinkError",
      code: "SANDBOX_REFUSED",
    });
  },
);

sandboxTest(
  "harnessCheck() where no cgroup can be made says the rlimits hold: processes beyond its uid's own, memory a process",
  async () => {
    await using home = await tempHome();
    const agent = await newAgent(home);
    const check = await grants.harnessCheck(contextOf(home), agent, {
      ...OPTIONS,
      limits: { places: [], scope: null },
    });
    const limits = check.rows.filter((r) => r.check.includes("[limits]"));
    // Run by root too: the sandbox is a uid of its own, never 0, which RLIMIT_NPROC would not bind.
    assert.deepEqual(limits.map((r) => [r.check, r.result, r.ok]), [
      [
        "processes, all its tasks together ([limits] processes)",
        "at most 1024 beyond its user's other tasks (rlimit)",
        true,
      ],
      ["memory, all its processes together ([limits] memory)", "at most 4 GiB a process (rlimit)", true],
      ["the size of one file ([limits] file_size)", "at most 4 GiB (rlimit)", true],
    ]);
  },
);

Deno.test({
  name:
    "lnk agent harness check run by an ordinary user says the rlimits hold its [limits], setuid and devices refused",
  ignore: NO_OTHER_USER !== undefined,
}, async () => {
  await using home = await userHome();
  const created = await lnkAsUser(home.path, ["agent", "create", "main"]);
  assert.equal(created.code, 0, created.stderr);
  const checked = await lnkAsUser(home.path, ["agent", "harness", "check", "--json"]);
  const rows = JSON.parse(checked.stdout) as grants.CheckRow[];
  const mine = rows.filter((r) => /\[limits\]|setuid|device/.test(r.check));
  assert.deepEqual(mine.map((r) => [r.check, r.result, r.ok]), [
    ["setuid and setgid bits (chmod u+s, g+s)", "refused", true],
    ["device nodes (mknod)", "refused (EPERM)", true],
    [
      "processes, all its tasks together ([limits] processes)",
      "at most 1024 beyond its user's other tasks (rlimit)",
      true,
    ],
    ["memory, all its processes together ([limits] memory)", "at most 4 GiB a process (rlimit)", true],
    ["the size of one file ([limits] file_size)", "at most 4 GiB (rlimit)", true],
  ]);
});
