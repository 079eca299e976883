import assert from "node:assert/strict";
import { join } from "node:path";
import { LinkPaths } from "../../../../core/base/mod.ts";
import { saveSettings } from "../../../../core/agent/mod.ts";
import { checkTeammate, serveDoor } from "../../../../core/agent_bridge/door/mod.ts";
import { changeTeam, createTeam } from "../../../../core/teams/mod.ts";
import { openEndpoint } from "../../../../connections/mod.ts";
import { serveFakeModel } from "../../../fakes/fake_model.ts";
import { harnessFixture, prompt } from "../../../support/harness_fixture.ts";

const A = { id: "aaaaaa1", name: "ann", owner: "local-o" };
const B = { id: "bbbbbb2", name: "bo", owner: "local-o" };
const C = { id: "cccccc3", name: "cy", owner: "acct-other" };

/** A home with agents A, B (one owner) and C (another), A and B on team "lab". */
async function teamHome(): Promise<{ paths: LinkPaths; [Symbol.asyncDispose](): Promise<void> }> {
  const home = await Deno.makeTempDir({ prefix: "lnk-team-door-" });
  const paths = new LinkPaths(home);
  for (const [i, a] of [A, B, C].entries()) {
    await Deno.mkdir(paths.agentState(a.id), { recursive: true });
    await saveSettings(
      paths,
      { ...a, harness: "link", ports: { endpoint: 40000 + i, block: 41000 + 10 * i } } as never,
    );
  }
  await createTeam(paths, "lab", { owner: A.owner });
  await changeTeam(paths, "lab", () => ({
    member: [{ id: A.id, name: "ann", purpose: "asks" }, { id: B.id, name: "bo", purpose: "answers" }],
  }));
  return { paths, [Symbol.asyncDispose]: () => Deno.remove(home, { recursive: true }) };
}

/** B's harness standing in: records the Link-From of each request it is asked. */
async function agentB() {
  const dir = await Deno.makeTempDir({ prefix: "lnk-door-" });
  const path = join(dir, "endpoint.sock");
  const asked: (string | null)[] = [];
  const ready = Promise.withResolvers<void>();
  const server = Deno.serve(
    { path, transport: "unix", onListen: () => ready.resolve() },
    async (req) => {
      await req.body?.cancel();
      asked.push(req.headers.get("link-from"));
      return new Response("taken");
    },
  );
  await ready.promise;
  return {
    path,
    asked,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("the door takes a teammate's message, and refuses it at once once the sender is off the team, the agent never asked (TEAM-7)", async () => {
  await using home = await teamHome();
  await using agent = await agentB();
  const client = Deno.createHttpClient({ poolMaxIdlePerHost: 0 });
  try {
    await using door = serveDoor({
      port: 0,
      target: () => Promise.resolve(agent.path),
      checkFrom: (from) => checkTeammate(home.paths, B, from),
    });
    const send = async (from?: string) => {
      const res = await fetch(`http://127.0.0.1:${door.port}/acp`, {
        method: "POST",
        body: "{}",
        headers: from ? { "Link-From": from } : {},
        client,
      });
      const text = await res.text();
      return res.status === 200
        ? { status: 200, text }
        : { status: res.status, error: JSON.parse(text).error };
    };
    assert.deepEqual(await send(`agent:${A.id}`), { status: 200, text: "taken" });
    assert.deepEqual(await send(), { status: 200, text: "taken" });
    assert.deepEqual(await send(`agent:${B.id}`), { status: 200, text: "taken" }, "its own schedules");
    assert.deepEqual(await send("person:telegram:42"), { status: 200, text: "taken" }, "the harness judges");

    await changeTeam(home.paths, "lab", (t) => ({ member: t.member.filter((m) => m.id !== A.id) }));
    assert.deepEqual(await send(`agent:${A.id}`), {
      status: 403,
      error: {
        code: "REFUSED",
        message: `Cannot take a message from agent "${A.id}" for agent "bo": they share no team now ` +
          `(the team files in "${home.paths.teams}")`,
        hint: 'Put both on one team with `lnk agent team add <team> <agent> --purpose "..."`',
      },
    });
    assert.deepEqual(await send(`agent:${C.id}`), {
      status: 403,
      error: {
        code: "REFUSED",
        message: `Cannot take a message from agent "${C.id}" for agent "bo": it is another owner's`,
        hint: 'Put both on one team with `lnk agent team add <team> <agent> --purpose "..."`',
      },
    });
    assert.equal((await send("agent:zzzzzz9")).status, 403);
    assert.deepEqual(await send(`agent:${B.id}`), { status: 200, text: "taken" }, "the door still serves");
    assert.deepEqual(agent.asked, [
      `agent:${A.id}`,
      null,
      `agent:${B.id}`,
      "person:telegram:42",
      `agent:${B.id}`,
    ]);
  } finally {
    client.close();
  }
});

Deno.test("attack: a stranger's head split across writes, or sent with two senders, or as a teammate of another owner's team, never reaches the agent (TEAM-7, TEAM-3)", async () => {
  await using home = await teamHome();
  // A team of the other owner's naming B does not make C its teammate.
  await createTeam(home.paths, "theirs", { owner: C.owner });
  await changeTeam(home.paths, "theirs", () => ({
    member: [{ id: C.id, name: "cy", purpose: "x" }, { id: B.id, name: "bo", purpose: "y" }],
  }));
  const dir = await Deno.makeTempDir({ prefix: "lnk-door-" });
  const path = join(dir, "endpoint.sock");
  const listener = Deno.listen({ transport: "unix", path });
  try {
    await using door = serveDoor({
      port: 0,
      target: () => Promise.resolve(path),
      checkFrom: (from) => checkTeammate(home.paths, B, from),
    });
    const tries: [string, string[]][] = [
      ["a head split so its sender comes last", [
        "POST /acp HTTP/1.1\r\nHost: agent\r\n",
        `Link-From: agent:${C.id}\r\nContent-Length: 2\r\n\r\n{}`,
      ]],
      ["two senders, a teammate's first", [
        `POST /acp HTTP/1.1\r\nHost: agent\r\nLink-From: agent:${A.id}\r\nLink-From: agent:${C.id}\r\nContent-Length: 0\r\n\r\n`,
      ]],
      ["a sender that looks like an agent and is none", [
        `POST /acp HTTP/1.1\r\nHost: agent\r\nLink-From: Agent:${A.id.toUpperCase()}\r\nContent-Length: 0\r\n\r\n`,
      ]],
      ["a sender of another owner's team with it", [
        `POST /acp HTTP/1.1\r\nHost: agent\r\nLink-From: agent:${C.id}\r\nContent-Length: 0\r\n\r\n`,
      ]],
    ];
    for (const [what, pieces] of tries) {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port: door.port });
      const upstream = await listener.accept();
      for (const piece of pieces) await conn.write(new TextEncoder().encode(piece));
      const answer = await readAll(conn);
      assert.match(answer, /^HTTP\/1\.1 403 Forbidden\r\n/, what);
      assert.equal(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)).error.code, "REFUSED", what);
      conn.close();
      assert.equal(await readAll(upstream), "", `${what}: the agent got nothing`);
      upstream.close();
    }
  } finally {
    listener.close();
    await Deno.remove(dir, { recursive: true });
  }
});

async function readAll(conn: Deno.Conn): Promise<string> {
  let got = "";
  const buf = new Uint8Array(4096);
  for (;;) {
    const n = await conn.read(buf).catch(() => null);
    if (n === null) return got;
    got += new TextDecoder().decode(buf.subarray(0, n));
  }
}

Deno.test("A's message through B's door, proved with B's key as the runner proves it, reaches B's Link Harness; A taken off the team, the next is refused at once, B still running (TEAM-7)", async () => {
  await using home = await teamHome();
  await using model = await serveFakeModel();
  await using harness = await harnessFixture(model, { agents: [{ id: B.id, owner: B.owner, name: B.name }] });
  await using door = serveDoor({
    port: 0,
    target: () => Promise.resolve(harness.socket),
    checkFrom: (from) => checkTeammate(home.paths, B, from),
  });
  const fromA = () =>
    openEndpoint({ port: door.port }, {
      agentId: B.id,
      agentName: B.name,
      key: harness.keys[0]!,
      from: `agent:${A.id}`,
    });
  model.reply("Got it, ann");
  {
    await using endpoint = await fromA();
    const sent = await prompt(endpoint, "hello from ann", { thread: `agent:${A.id}` });
    assert.deepEqual(sent.result, { kind: "answered", text: "Got it, ann", stopReason: "end_turn" });
  }
  assert.equal(model.requests.length, 1);

  await changeTeam(home.paths, "lab", (t) => ({ member: t.member.filter((m) => m.id !== A.id) }));
  {
    await using endpoint = await fromA();
    await assert.rejects(() => prompt(endpoint, "hello again", { thread: `agent:${A.id}` }), {
      code: "REFUSED",
    });
  }
  assert.equal(model.requests.length, 1, "the harness was never asked");
  model.reply("Still here");
  await using owner = await openEndpoint({ port: door.port }, {
    agentId: B.id,
    agentName: B.name,
    key: harness.keys[0]!,
  });
  assert.equal((await prompt(owner, "you there?")).text, "Still here");
});
