import assert from "node:assert/strict";
import { joinPath, setLogSink, SYSTEM_CLOCK } from "../../../../core/base/mod.ts";
import { filesStore } from "../../../../core/harness/store/files_store.ts";
import { withProxiedTools } from "../../../../core/harness/serve/proxied_turn_tools.ts";
import { listProxiedTools } from "../../../../core/harness/tools/proxied_tools.ts";
import { lazyProxiedTools, type ListedServer } from "../../../../core/harness/tools/lazy_proxied_tools.ts";
import type { TurnTools } from "../../../../core/harness/turns/turn_agent.ts";
import { schedulerFixture } from "../../../support/tool_proxy.ts";

/** One own tool of the harness, `note`, answering "noted". */
const OWN: TurnTools = {
  definitions: () =>
    Promise.resolve([{ type: "function", function: { name: "note", description: "n", parameters: {} } }]),
  run: (call) => Promise.resolve({ content: `noted by ${call.function.name}`, ok: true }),
};

function callOf(name: string, args: unknown) {
  return { id: "c1", type: "function" as const, function: { name, arguments: JSON.stringify(args) } };
}

Deno.test("Link's tools join the harness's own after them, narrowed per conversation, each call with its thread, hops and tools (SCH-9)", async () => {
  await using f = await schedulerFixture();
  const secret = f.proxy.newSecret();
  await using proxied = await listProxiedTools({
    url: `http://127.0.0.1:3129/_link/s/${secret.reveal()}/`,
    servers: ["scheduler"],
    taken: ["note"],
    socket: f.proxy.socket,
    clock: SYSTEM_CLOCK,
    agentId: "a1",
  });
  const store = filesStore(joinPath(f.home, "chats"));
  const tools = withProxiedTools(OWN, Promise.resolve(proxied), store);
  const names = async (c: string) => (await tools.definitions(c)).map((d) => d.function.name);
  assert.deepEqual(await names("telegram:1"), [
    "note",
    "schedule",
    "list_jobs",
    "cancel_job",
    "start_subagent",
    "send",
  ]);
  // The same bytes every time (PRN-2).
  assert.equal(
    JSON.stringify(await tools.definitions("telegram:1")),
    JSON.stringify(await tools.definitions("x:2")),
  );
  await store.toolsWrite("sub:1", ["note", "start_subagent"]);
  assert.deepEqual(await names("sub:1"), ["note", "start_subagent"]);
  const signal = new AbortController().signal;
  assert.deepEqual(await tools.run(callOf("note", {}), { conversation: "sub:1", signal }), {
    content: "noted by note",
    ok: true,
  });
  const started = await tools.run(callOf("start_subagent", { task: "t", tools: ["note", "send"] }), {
    conversation: "sub:1",
    hops: 2,
    signal,
  });
  assert.equal(started.ok, true, started.content);
  const [job] = (await f.jobs.list()).jobs;
  // The conversation's own list went in _meta: send, which it does not have, is left out.
  assert.deepEqual([job!.tools, job!.hops, job!.reply], [["note"], 3, {
    to: "agent",
    agent: "a1",
    thread: "sub:1",
    from: `subagent:${job!.id}`,
  }]);
  // A tool the conversation does not have goes to the harness's own tools, which say it has none.
  assert.deepEqual(
    await tools.run(callOf("send", { to: "x", text: "y" }), { conversation: "sub:1", signal }),
    {
      content: "noted by send",
      ok: true,
    },
  );
  assert.deepEqual(
    await tools.run({ ...callOf("schedule", {}), function: { name: "schedule", arguments: "{" } }, {
      conversation: "telegram:1",
      signal,
    }),
    { content: "Cannot run schedule: its arguments are not valid JSON", ok: false },
  );
});

Deno.test("a tool proxy that does not answer leaves the harness's own tools, and the log says so", async () => {
  const dir = await Deno.makeTempDir();
  const lines: string[] = [];
  const restore = setLogSink((line) => lines.push(line));
  try {
    await using proxied = await listProxiedTools({
      url: "http://127.0.0.1:3129/_link/s/some-secret/",
      servers: ["scheduler"],
      taken: [],
      socket: joinPath(dir, "absent.sock"),
      clock: SYSTEM_CLOCK,
      agentId: "a1",
    });
    assert.deepEqual(proxied.definitions, []);
    const tools = withProxiedTools(OWN, Promise.resolve(proxied), filesStore(joinPath(dir, "chats")));
    assert.deepEqual((await tools.definitions("link:main")).map((d) => d.function.name), ["note"]);
    const warned = lines.map((l) => JSON.parse(l)).filter((e) => e.level === "warn");
    assert.deepEqual(warned.map((e) => [e.msg, e.server]), [[
      "The tool proxy did not list its tools: the harness's own tools work without them",
      "scheduler",
    ]]);
    assert.ok(!lines.join("").includes("some-secret"), "a log line holds the secret");
  } finally {
    restore();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the tools the proxy lists in process are the bytes the SDK's client lists, and a harness handed them calls the proxy only at the first call of one, through the SDK with its _meta (PRC-13, PRN-2, SCH-9)", async () => {
  await using f = await schedulerFixture();
  const secret = f.proxy.newSecret();
  const url = `http://127.0.0.1:3129/_link/s/${secret.reveal()}/`;
  const listed = await f.proxy.list();
  assert.deepEqual(listed.map((s) => [s.server, s.tools.map((t) => t.name)]), [[
    "scheduler",
    ["schedule", "list_jobs", "cancel_job", "start_subagent", "send"],
  ]]);
  const before = f.served();
  await using handed = lazyProxiedTools({
    url,
    listed: listed as ListedServer[],
    taken: ["note"],
    socket: f.proxy.socket,
    clock: SYSTEM_CLOCK,
    agentId: "a1",
  });
  const store = filesStore(joinPath(f.home, "chats"));
  const tools = withProxiedTools(OWN, Promise.resolve(handed), store);
  const handedBytes = JSON.stringify(await tools.definitions("t:1"));
  assert.equal(f.served(), before, "the harness called the proxy before a call of Link's tools");
  await using viaSdk = await listProxiedTools({
    url,
    servers: ["scheduler"],
    taken: ["note"],
    socket: f.proxy.socket,
    clock: SYSTEM_CLOCK,
    agentId: "a1",
  });
  const listedBytes = JSON.stringify(
    await withProxiedTools(OWN, Promise.resolve(viaSdk), store).definitions("t:1"),
  );
  assert.equal(handedBytes, listedBytes);
  const served = f.served();
  const signal = new AbortController().signal;
  const started = await tools.run(callOf("start_subagent", { task: "t", tools: ["note"] }), {
    conversation: "t:1",
    hops: 1,
    signal,
  });
  assert.equal(started.ok, true, started.content);
  assert.ok(f.served() > served, "the call did not reach the proxy");
  const [job] = (await f.jobs.list()).jobs;
  assert.deepEqual([job!.tools, job!.hops, job!.reply], [["note"], 2, {
    to: "agent",
    agent: "a1",
    thread: "t:1",
    from: `subagent:${job!.id}`,
  }]);
  // The list after the call is the list before it (PRN-2).
  assert.equal(JSON.stringify(await tools.definitions("t:1")), listedBytes);
});

Deno.test("a harness handed Link's tools whose proxy does not answer says so at the call, and the model is told the call was not made", async () => {
  const dir = await Deno.makeTempDir();
  const lines: string[] = [];
  const restore = setLogSink((line) => lines.push(line));
  try {
    await using handed = lazyProxiedTools({
      url: "http://127.0.0.1:3129/_link/s/some-secret/",
      listed: [{ server: "scheduler", tools: [{ name: "send", inputSchema: { type: "object" } }] }],
      taken: [],
      socket: joinPath(dir, "absent.sock"),
      clock: SYSTEM_CLOCK,
      agentId: "a1",
    });
    const tools = withProxiedTools(OWN, Promise.resolve(handed), filesStore(joinPath(dir, "chats")));
    assert.deepEqual((await tools.definitions("link:main")).map((d) => d.function.name), ["note", "send"]);
    const signal = new AbortController().signal;
    assert.deepEqual(
      await tools.run(callOf("send", { to: "x", text: "y" }), { conversation: "link:main", signal }),
      {
        content: "Cannot call send: Link's tools did not answer. The call was not made.",
        ok: false,
      },
    );
    const warned = lines.map((l) => JSON.parse(l)).filter((e) => e.level === "warn");
    assert.deepEqual(warned.map((e) => [e.msg, e.server]), [[
      "The tool proxy did not answer: Link's tool was not called",
      "scheduler",
    ]]);
    assert.ok(!lines.join("").includes("some-secret"), "a log line holds the secret");
  } finally {
    restore();
    await Deno.remove(dir, { recursive: true });
  }
});
