import assert from "node:assert/strict";
import { join } from "node:path";
import { loadAgentConfig, loadSettings, services } from "../../../core/agent/mod.ts";
import { AgentTools } from "../../../core/agent_bridge/mod.ts";
import { JobStore } from "../../../core/scheduler/mod.ts";
import { type FakeModel, serveFakeModel } from "../../fakes/fake_model.ts";
import { serviceLog, waitForLog } from "../../support/service_log.ts";
import { decodeKey } from "../../../core/base/mod.ts";
import { openEndpoint } from "../../../connections/mod.ts";
import { runCli, runJson, tempHome } from "../../support/mod.ts";
import { askEndpoint, runStdout, sandboxedTest, toolResult } from "../../support/sandboxed_agent.ts";
import {
  descendants,
  type Dialled,
  hostedAgent,
  launch,
  mountPoints,
  REAL_KEY,
  runOn,
  sharingHome,
} from "../../support/shared_harness.ts";
import { sharedHarnessSocketPath } from "../../../core/agent/sharing/mod.ts";
import { sharedHarnessNames } from "../../../core/agent/sharing/mod.ts";

sandboxedTest(
  "shared_harness: three agents of one owner share one harness process, each with its own proxy and key; another owner's agent gets its own (PRC-2, PRC-4)",
  async () => {
    await using model = await serveFakeModel({ key: REAL_KEY });
    await using home = await tempHome();
    await sharingHome(home);
    const [a, b, c] = [
      await hostedAgent(home, "main"),
      await hostedAgent(home, "ada"),
      await hostedAgent(home, "bo"),
    ];
    const p = await hostedAgent(home, "pia", "acct-other");
    await Deno.writeTextFile(join(b.layout.home, "secret.txt"), "b's own");
    await Deno.writeTextFile(join(p.layout.home, "secret.txt"), "p's own");
    const dialled: Dialled = [];
    await using ha = await launch(home, a, model, dialled);
    await using hb = await launch(home, b, model, dialled);
    await using hc = await launch(home, c, model, dialled);
    await using hp = await launch(home, p, model, dialled);
    assert.deepEqual([hb.pid, hc.pid], [ha.pid, ha.pid]);
    assert.notEqual(hp.pid, ha.pid);
    assert.deepEqual([ha.sandboxed, ha.proxied, hp.sandboxed, hp.proxied], [true, true, true, true]);

    // Each answers at its own socket, its model call going out through its own proxy with the key added there.
    for (const [agent, text] of [[a, "A"], [b, "B"], [c, "C"], [p, "P"]] as const) {
      model.reply(`answer ${text}`);
      assert.equal(await askEndpoint(home, agent, "hi"), `answer ${text}`);
      const request = await model.nextRequest();
      assert.equal(request.headers.authorization, `Bearer ${REAL_KEY}`);
    }
    assert.deepEqual(dialled, [a.id, b.id, c.id, p.id]);
    // No process holds folders of both owners: each sandbox shows its owner's agents alone.
    const shown = async (pid: number) =>
      (await Promise.all([pid, ...await descendants(pid)].map(mountPoints))).flat();
    const ownerO = await shown(ha.pid), ownerP = await shown(hp.pid);
    for (const agent of [a, b, c]) {
      assert.ok(ownerO.includes(agent.layout.home), `${agent.name} in O's sandbox`);
    }
    assert.equal(ownerO.some((m) => m.startsWith(p.layout.home) || m.startsWith(p.layout.agent)), false);
    assert.equal(ownerP.some((m) => [a, b, c].some((x) => m.startsWith(x.layout.home))), false);

    // A's commands see A's Home but no other agent's, and its own proxy alone.
    await Deno.writeTextFile(join(a.layout.home, "secret.txt"), "a's own");
    const out = runStdout(
      await runOn(
        home,
        a,
        model,
        `cat secret.txt 2>&1; cat ${join(b.layout.home, "secret.txt")} 2>&1; env | grep -i ^http_proxy=`,
      ),
    );
    assert.match(out, /^a's own/);
    assert.match(out, /Permission denied/);
    assert.equal(out.includes("b's own"), false);
    assert.match(out, new RegExp(`http_proxy=http://[^@]+@127\\.0\\.0\\.1:\\d+`));

    // Each agent's commands have their own HOME and TMPDIR, kept from the others'; /tmp and
    // /dev/shm, which all would share, take nothing new.
    const places = await runOn(
      home,
      b,
      model,
      'echo b > "$TMPDIR/x" && echo b > "$HOME/y" && echo "places $HOME $TMPDIR"',
    );
    const [, bHome, bTmp] = runStdout(places).trim().split(" ");
    assert.equal(bTmp, `/tmp/${b.id}`);
    const tried = await runOn(
      home,
      a,
      model,
      `cat ${bTmp}/x ${bHome}/y; echo a > /tmp/z; echo a > /dev/shm/z; echo a > "$TMPDIR/ok" && echo own-ok`,
    );
    assert.equal(runStdout(tried).trim(), "own-ok");
    assert.equal((tried.match(/Permission denied/g) ?? []).length, 4, tried);

    // Nor can they end the one process every agent of the owner shares: the signal is refused.
    assert.match(runStdout(await runOn(home, a, model, "kill -KILL $PPID; echo exit=$?")), /exit=[1-9]/);
    model.reply("b still here");
    assert.equal(await askEndpoint(home, b, "hi"), "b still here");
  },
);

sandboxedTest(
  "shared_harness: an agent that reaches more than its proxy, or came after the shared harness started, keeps a sandbox of its own (PRC-3)",
  async () => {
    await using model = await serveFakeModel({ key: REAL_KEY });
    await using home = await tempHome();
    await sharingHome(home);
    const a = await hostedAgent(home, "main");
    const host = await hostedAgent(home, "hosty");
    const sandboxToml = join(host.layout.config, "sandbox.toml");
    await Deno.writeTextFile(
      sandboxToml,
      (await Deno.readTextFile(sandboxToml)).replace('mode = "proxy"', 'mode = "host"'),
    );
    const dialled: Dialled = [];
    await using ha = await launch(home, a, model, dialled);
    await using hh = await launch(home, host, model, dialled);
    assert.notEqual(hh.pid, ha.pid);
    assert.deepEqual([hh.sandboxed, hh.proxied], [true, false]);
    // Created once the shared sandbox was made, with another agent on it: its folders are not in it.
    const late = await hostedAgent(home, "late");
    await using hl = await launch(home, late, model, dialled);
    assert.notEqual(hl.pid, ha.pid);
    assert.deepEqual([hl.sandboxed, hl.proxied], [true, true]);
    model.reply("late answer");
    assert.equal(await askEndpoint(home, late, "hi"), "late answer");
  },
);

sandboxedTest(
  "shared_harness: an agent started again within the linger finds the same harness; with no agent it ends after its linger (PRC-15, PRC-16; LNK_HARNESS_LINGER shortens it for this test)",
  async () => {
    await using model = await serveFakeModel({ key: REAL_KEY });
    await using home = await tempHome();
    await sharingHome(home);
    const a = await hostedAgent(home, "main");
    const owner = (await loadSettings(home.paths, a.id)).owner;
    const dialled: Dialled = [];
    const first = await launch(home, a, model, dialled);
    await first.stop();
    // Started again at once, well within the 20 s linger: the same harness process.
    await using again = await launch(home, a, model, dialled);
    assert.equal(again.pid, first.pid);
    model.reply("still here");
    assert.equal(await askEndpoint(home, a, "hi"), "still here");
    await again.stop();
    // The service stopped, then started with a short linger: it ends 1 s after its last agent.
    await services.detachedBackend(home.paths).stop(sharedHarnessNames(owner));
    home.env.set("LNK_HARNESS_LINGER", "1s");
    const short = await launch(home, a, model, dialled);
    assert.notEqual(short.pid, first.pid);
    await short.stop();
    const log = join(home.paths.run, `${sharedHarnessNames(owner).base}.log`);
    await waitForLog(log, (e) => e.msg === "Shared harness ended after its linger");
    // The first service's stop said so too: this is the second's.
    await waitForLog(log, (e) => e.msg === "Shared harness stopped", 2);
    // Its sandbox went with it, and nothing answers at its socket.
    const state = await Deno.readTextFile(`/proc/${short.pid}/stat`).then(
      (t) => t.split(") ")[1]![0],
      () => "gone",
    );
    assert.ok(state === "gone" || state === "Z", `the sandbox is ${state}`);
    await assert.rejects(Deno.stat(sharedHarnessSocketPath(home.paths, owner)), Deno.errors.NotFound);
  },
);

sandboxedTest(
  "lnk agent start with shared_harness: two agents awake on one harness process, status says so; stopping the agent that started it leaves it to the other (PRC-2, PRC-16)",
  async () => {
    await using home = await tempHome();
    await sharingHome(home);
    const a = await hostedAgent(home, "main");
    await hostedAgent(home, "work");
    await runJson(["agent", "start", "--agent", "main"], home);
    await runJson(["agent", "start", "--agent", "work"], home);
    type Status = { state: string; sharedHarness?: boolean; services: { agent: { pid?: number } } };
    const [sa, sb] = [
      await runJson<Status>(["agent", "status", "--agent", "main"], home),
      await runJson<Status>(["agent", "status", "--agent", "work"], home),
    ];
    assert.deepEqual([sa.state, sa.sharedHarness, sb.state, sb.sharedHarness], [
      "running",
      true,
      "running",
      true,
    ]);
    assert.equal(sb.services.agent.pid, sa.services.agent.pid);
    const text = await runCli(["agent", "status", "--agent", "work"], home);
    assert.match(text.stdout, /sandbox on \(its owner's shared harness\)/);
    // Its turns run in the shared harness: its log lines there are among its logs.
    const logs = await runCli(["agent", "logs", "--agent", "work"], home);
    assert.match(logs.stdout, /^shared harness: .*"Shared harness serves an agent"/m);
    await runJson(["agent", "stop", "--agent", "main"], home);
    const after = await runJson<Status>(["agent", "status", "--agent", "work"], home);
    assert.deepEqual([after.state, after.services.agent.pid], ["running", sa.services.agent.pid]);
    assert.equal((await runJson<Status>(["agent", "status", "--agent", a.name], home)).state, "stopped");
  },
);

sandboxedTest(
  "by default two agents of one owner each run their own sandbox and harness (PRC-1)",
  async () => {
    await using model = await serveFakeModel({ key: REAL_KEY });
    await using home = await tempHome();
    home.env.set("OPENAI_API_KEY", REAL_KEY);
    const a = await hostedAgent(home, "main");
    const b = await hostedAgent(home, "work");
    const dialled: Dialled = [];
    await using ha = await launch(home, a, model, dialled);
    await using hb = await launch(home, b, model, dialled);
    assert.notEqual(ha.pid, hb.pid);
    assert.deepEqual([ha.shared, hb.shared], [undefined, undefined]);
    const shown = await mountPoints((await descendants(ha.pid)).at(-1)!);
    assert.equal(shown.some((m) => m.startsWith(b.layout.home)), false);
  },
);

sandboxedTest(
  "a bridge killed with its agent on the shared harness: the shared harness lets the agent go (PRC-2)",
  async () => {
    await using home = await tempHome();
    await sharingHome(home);
    const a = await hostedAgent(home, "main");
    await runJson(["agent", "start", "--agent", "main"], home);
    type Status = { state: string; services: { bridge: { pid?: number } } };
    const status = await runJson<Status>(["agent", "status", "--agent", "main"], home);
    Deno.kill(status.services.bridge.pid!, "SIGKILL");
    const owner = (await loadSettings(home.paths, a.id)).owner;
    const log = join(home.paths.run, `${sharedHarnessNames(owner).base}.log`);
    await waitForLog(log, (e) => e.msg === "Shared harness let an agent go" && e.agent === a.id);
    assert.equal((await runJson<Status>(["agent", "status", "--agent", "main"], home)).state, "died");
  },
);

sandboxedTest(
  "an agent on the shared harness sleeps at idle_after, letting go of the harness alone, and a caller at its door wakes it onto the same harness (PRC-10, PRC-13)",
  async () => {
    await using home = await tempHome();
    await sharingHome(home);
    const keeper = await hostedAgent(home, "main");
    const a = await hostedAgent(home, "work");
    const spec = join(a.layout.config, "spec.toml");
    await Deno.writeTextFile(spec, (await Deno.readTextFile(spec)).replace('"5m"', '"1s"'));
    await runJson(["agent", "start", "--agent", keeper.name], home);
    await runJson(["agent", "start", "--agent", a.name], home);
    type Status = { state: string; sharedHarness?: boolean; services: { agent: { pid?: number } } };
    const harnessPid =
      (await runJson<Status>(["agent", "status", "--agent", keeper.name], home)).services.agent.pid;
    const owner = (await loadSettings(home.paths, a.id)).owner;
    const sharedLog = join(home.paths.run, `${sharedHarnessNames(owner).base}.log`);
    await waitForLog(serviceLog(home, "bridge", a.id), (e) => e.msg === "Agent asleep");
    await waitForLog(sharedLog, (e) => e.msg === "Shared harness let an agent go" && e.agent === a.id);
    assert.equal((await runJson<Status>(["agent", "status", "--agent", a.name], home)).state, "asleep");
    assert.equal((await runJson<Status>(["agent", "status", "--agent", keeper.name], home)).state, "running");
    // A caller proving itself at the door wakes it: the same shared harness serves it again.
    const port = (await loadSettings(home.paths, a.id)).ports.endpoint;
    const key = decodeKey(await Deno.readTextFile(home.paths.keyFile(a.id)));
    await using endpoint = await openEndpoint({ port }, { agentId: a.id, agentName: a.name, key });
    const meta = { "link.local/thread": "link:main" };
    await endpoint.call("session/new", { cwd: "/", mcpServers: [], _meta: meta });
    const woken = await runJson<Status>(["agent", "status", "--agent", a.name], home);
    assert.deepEqual([woken.state, woken.sharedHarness, woken.services.agent.pid], [
      "running",
      true,
      harnessPid,
    ]);
  },
);

/** Agents main and ada, each with its tool proxy served, launched onto one shared harness. */
async function twoOnOneHarness(home: Awaited<ReturnType<typeof tempHome>>, model: FakeModel) {
  const [a, b] = [await hostedAgent(home, "main"), await hostedAgent(home, "ada")];
  const stack = new AsyncDisposableStack();
  const dialled: Dialled = [];
  const pids: number[] = [];
  for (const agent of [a, b]) {
    const settings = await loadSettings(home.paths, agent.id);
    const { spec } = await loadAgentConfig(home.paths, settings);
    const seat = new AgentTools(home.paths, settings, spec);
    stack.use(await seat.serve());
    pids.push(stack.use(await launch(home, agent, model, dialled, seat)).pid);
  }
  assert.equal(pids[1], pids[0], "the second agent was not launched onto the first's harness");
  return { a, b, [Symbol.asyncDispose]: () => stack.disposeAsync() };
}

sandboxedTest(
  "shared_harness: each agent of one shared harness calls Link's tools through its own tool proxy and secret, handed them listed (PRC-2, SBX-18, SBX-19, PRC-13)",
  async () => {
    await using model = await serveFakeModel({ key: REAL_KEY });
    await using home = await tempHome();
    await sharingHome(home);
    await using pair = await twoOnOneHarness(home, model);
    const { a, b } = pair;
    const jobsOf = async (agent: typeof a) =>
      (await new JobStore(join(agent.layout.agent, "schedule")).list()).jobs.map((j) => [j.to, j.text]);
    for (const [agent, text] of [[a, "for a"], [b, "for b"]] as const) {
      model.replyToolCall("schedule", { message: text, in: "1h" });
      model.reply("Scheduled.");
      assert.equal(await askEndpoint(home, agent, "remind me"), "Scheduled.");
      const first = await model.nextRequest();
      const second = await model.nextRequest();
      const tools = (first.body as { tools: { function: { name: string } }[] }).tools;
      assert.ok(tools.some((t) => t.function.name === "schedule"), "no schedule tool");
      assert.equal(JSON.stringify((second.body as { tools: unknown }).tools), JSON.stringify(tools));
      assert.match(toolResult(second), /^Scheduled j-/);
    }
    // Each job went to its own agent's schedule, through its own proxy.
    assert.deepEqual([await jobsOf(a), await jobsOf(b)], [[[a.id, "for a"]], [[b.id, "for b"]]]);
  },
);

sandboxedTest(
  "attack: on one shared harness, an agent's run commands cannot use another agent's tools, proxy or endpoint: no secret to find, and each of its sockets refuses them (PRC-2, SBX-19, SCH-9)",
  async () => {
    await using model = await serveFakeModel({ key: REAL_KEY });
    await using home = await tempHome();
    await sharingHome(home);
    await using pair = await twoOnOneHarness(home, model);
    const { a, b } = pair;
    // The secret's prefix is put together at run time, so this script's own text never holds it.
    const script = [
      'L=_link; S=/s/; me=$$; R="$L$S[A-Za-z0-9_-]{43}"',
      'pids=$(ls /proc | grep -E "^[0-9]+$" | grep -vx "$me")',
      'n=0; for p in $pids; do cat /proc/$p/environ /proc/$p/cmdline 2>/dev/null | grep -aqE "$R" && n=$((n+1)); done',
      'echo "a secret in another process\'s environment or arguments: $n found"',
      'post() { curl -s -m 10 -o /dev/null -w "%{http_code}" -X POST -H "content-type: application/json" ' +
      '-H "accept: application/json, text/event-stream" ' +
      '-d \'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"schedule","arguments":{"message":"as you","in":"1m"},' +
      '"_meta":{"link.local/thread":"link:main"}}}\' "$@"; }',
      "ok=0; seen=0; for s in $(find / -name tools.sock 2>/dev/null); do seen=$((seen+1))",
      '  c=$(post --unix-socket "$s" "http://x/$L${S}guess/scheduler"); [ "$c" = 403 ] || [ "$c" = 000 ] || ok=$((ok+1))',
      "done",
      'echo "a tool proxy taking a call without its secret: $ok"; echo "tool proxy sockets seen: $seen"',
      `c=$(post --unix-socket ${join(home.paths.net(b.id), "tools.sock")} "http://x/$L\${S}guess/scheduler")`,
      `echo "the other agent's socket by its name on the machine: \${c}"`,
      'c=$(post "http://127.0.0.1:3129/$L${S}guess/scheduler"); echo "the relayed port: ${c}"',
      `c=$(curl -s -m 10 -o /dev/null -w "%{http_code}" --unix-socket ${
        join(home.paths.net(b.id), "proxy.sock")
      } http://127.0.0.1:9/v1/models)`,
      `echo "the other agent's egress proxy: \${c}"`,
      `c=$(post --unix-socket ${join(home.paths.net(b.id), "endpoint.sock")} http://x/acp)`,
      `echo "the other agent's endpoint: \${c}"`,
    ].join("\n");
    assert.deepEqual(runStdout(await runOn(home, a, model, script)).split("\n"), [
      "a secret in another process's environment or arguments: 0 found",
      "a tool proxy taking a call without its secret: 0",
      // A command lists no agent's sockets; named by its path, the other agent's is there, and
      // each of them refuses what does not carry that agent's secret or proof.
      "tool proxy sockets seen: 0",
      `the other agent's socket by its name on the machine: 403`,
      // The shared harness reaches each proxy by its socket: no port is relayed for a command to try.
      "the relayed port: 000",
      "the other agent's egress proxy: 403",
      "the other agent's endpoint: 401",
    ]);
    const jobsOf = async (agent: typeof a) =>
      (await new JobStore(join(agent.layout.agent, "schedule")).list()).jobs.length;
    assert.deepEqual([await jobsOf(a), await jobsOf(b)], [0, 0]);
  },
);
