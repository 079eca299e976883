import assert from "node:assert/strict";
import { join } from "node:path";
import { setLogSink } from "../../../../core/base/mod.ts";
import { NOT_MADE } from "../../../../core/harness/mod.ts";
import { heldDir, sendChat } from "../../../../connections/link/mod.ts";
import { type FakeModel, serveFakeModel } from "../../../fakes/fake_model.ts";
import { type TempHome, tempHome } from "../../../support/mod.ts";
import { prompt, shape } from "../../../support/harness_fixture.ts";
import {
  connect,
  createServedAgent,
  keptOf,
  type ServedAgent,
  socketIn,
  startHarness,
  storedEvents,
} from "./_support.ts";

/** One point of a turn where the harness is killed, and what the conversation holds then and after. */
interface KillPoint {
  name: string;
  /** Scripts the model, sends the message, and resolves once the harness is at the point. */
  reach(ctx: PointContext): Promise<void>;
  atCrash: unknown[];
  /** The model's answer when the next start finishes the turn; none when it only lets go. */
  recovered?: string;
  after: unknown[];
}

interface PointContext {
  model: FakeModel;
  home: TempHome;
  agent: ServedAgent;
  /** Sends the message; resolves at each streamed text. */
  send(onText?: () => void): void;
  /** A URL the tool calls, which holds until the test ends: the tool is running. */
  toolUrl: string;
  toolRan: Promise<void>;
}

const POINTS: KillPoint[] = [
  {
    name: "after the message and turn events, before the model answers",
    async reach({ model, send, agent }) {
      const held = model.reply("never", { hold: true });
      send();
      await held.taken;
      // The call goes out while the turn's event is written (PRC-13): the point is once it is.
      await eventWritten(agent, 2);
    },
    atCrash: [[1, "message", "do it"], [2, "turn", [1]]],
    recovered: "Recovered answer.",
    after: [[1, "message", "do it"], [2, "turn", [1]], [3, "answer", "Recovered answer.", [1]]],
  },
  {
    name: "mid model stream",
    async reach({ model, send }) {
      const paced = model.reply("Part one of an answer", { paced: true });
      const streamed = Promise.withResolvers<void>();
      send(() => streamed.resolve());
      await paced.taken;
      paced.step(3);
      await streamed.promise;
    },
    atCrash: [[1, "message", "do it"], [2, "turn", [1]]],
    recovered: "Recovered answer.",
    after: [[1, "message", "do it"], [2, "turn", [1]], [3, "answer", "Recovered answer.", [1]]],
  },
  {
    name: "after a tool call event, before its result",
    async reach({ model, send, toolUrl, toolRan }) {
      model.replyToolCall(
        "run",
        { command: ["sh", "-c", `echo ran >> runs.txt; curl -s -m 60 ${toolUrl}`] },
        {
          id: "call-1",
        },
      );
      send();
      await toolRan;
    },
    atCrash: [[1, "message", "do it"], [2, "turn", [1]], [3, "assistant", "", ["run"]]],
    recovered: "I did not run it again.",
    after: [
      [1, "message", "do it"],
      [2, "turn", [1]],
      [3, "assistant", "", ["run"]],
      [4, "tool_result", "not made"],
      [5, "answer", "I did not run it again.", [1]],
    ],
  },
  {
    name: "after the answer event, before the lease is let go",
    async reach({ model, send, agent }) {
      const held = model.reply("All done.", { hold: true });
      send();
      await held.taken;
      using watcher = Deno.watchFs(join(agent.agentDir, "chats", "link+main", "events"));
      held.release();
      for await (const change of watcher) if (change.paths.some((p) => p.endsWith("/3.json"))) break;
    },
    atCrash: [[1, "message", "do it"], [2, "turn", [1]], [3, "answer", "All done.", [1]]],
    after: [[1, "message", "do it"], [2, "turn", [1]], [3, "answer", "All done.", [1]]],
  },
];

/** Resolves once the conversation's event `n` is on disk. */
async function eventWritten(agent: ServedAgent, n: number): Promise<void> {
  const dir = join(agent.agentDir, "chats", "link+main", "events");
  using watcher = Deno.watchFs(dir);
  const there = () => Deno.stat(join(dir, `${n}.json`)).then(() => true, () => false);
  if (await there()) return;
  for await (const _change of watcher) if (await there()) return;
}

Deno.test("kill -9 of the harness at points of a turn loses no event, runs no tool twice, and the next start finishes the turn for the chat", async (t) => {
  const restore = setLogSink(() => {});
  try {
    for (const point of POINTS) await t.step(point.name, () => crashAt(point));
  } finally {
    restore();
  }
});

async function crashAt(point: KillPoint): Promise<void> {
  await using model = await serveFakeModel({ defaultText: "Fine, thanks." });
  await using home = await tempHome();
  const agent = await createServedAgent(home, model);
  const socket = socketIn(home, "harness");
  const toolRan = Promise.withResolvers<void>();
  const toolHold = Promise.withResolvers<void>();
  await using tool = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async () => {
    toolRan.resolve();
    await toolHold.promise;
    return new Response("ok");
  });
  let harness = await startHarness(home, agent, socket);
  try {
    const chat = await connect(agent, socket);
    let sent: Promise<unknown> = Promise.resolve();
    await point.reach({
      model,
      home,
      agent,
      toolUrl: `http://127.0.0.1:${tool.addr.port}/ran`,
      toolRan: toolRan.promise,
      send: (onText) => void (sent = prompt(chat, "do it", { onUpdate: () => onText?.() })),
    });
    await harness.stop("SIGKILL");
    await sent;
    await chat[Symbol.asyncDispose]();
    const atCrash = await storedEvents(agent);
    assert.deepEqual(shape(atCrash), point.atCrash);
    const asked = model.requests.length;
    if (point.recovered) model.reply(point.recovered);
    harness = await startHarness(home, agent, socket);
    await using bridge = await connect(agent, socket);
    await bridge.request("GET", "/_link/recover?conversation=link%3Amain&wait=60000");
    const after = await storedEvents(agent);
    assert.deepEqual(after.slice(0, atCrash.length), atCrash, "no event written before the crash is lost");
    assert.deepEqual(shape(after), point.after);
    assert.equal(model.requests.length, asked + (point.recovered ? 1 : 0));
    if (point.after.some((e) => (e as unknown[])[1] === "tool_result")) {
      const sent = model.requests.at(-1)!.body as { messages: { role: string; content: string }[] };
      assert.deepEqual(sent.messages.at(-1), { role: "tool", tool_call_id: "call-1", content: NOT_MADE });
      assert.equal(await Deno.readTextFile(join(agent.homeDir, "runs.txt")), "ran\n");
    }
    assert.equal((await keptOf(agent).list()).length, point.recovered ? 1 : 0);
    // The answer reaches the chat: the next message on the thread prints it first, once.
    const earlier: string[] = [];
    let text = "";
    const outcome = await sendChat({
      address: { path: socket },
      caller: { agentId: agent.id, agentName: agent.name, key: agent.key },
      heldDir: heldDir(home.paths, agent.id),
      thread: "link:main",
      text: "and now?",
      signal: new AbortController().signal,
      onEarlier: (t) => earlier.push(t),
      onText: (t) => void (text += t),
    });
    assert.deepEqual({ outcome, earlier, text }, {
      outcome: { kind: "answered" },
      earlier: point.recovered ? [point.recovered] : [],
      text: "Fine, thanks.",
    });
    assert.deepEqual(await keptOf(agent).list(), []);
  } finally {
    toolHold.resolve();
    await harness.stop();
  }
}
