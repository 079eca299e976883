/**
 * Issue 12's chains end to end, every part real: the fake model calls Link Scheduler's tools inside
 * sandboxed Link Harnesses started by `lnk agent start`, through the real MCP SDK and the bridge's
 * tool proxy; the runner of the agent's bridge fires the jobs through the doors; the answers come
 * back as jobs of their own; the last answer waits on the way in for the owner's next chat.
 */
import assert from "node:assert/strict";
import type { FakeModelRequest } from "../../fakes/fake_model.ts";
import { serveFakeModel } from "../../fakes/fake_model.ts";
import { runJson, serviceLog, type TempHome, tempHome, waitForLog } from "../../support/mod.ts";
import { sandboxedTest } from "../../support/sandboxed_agent.ts";

type Chat = { earlier: string[]; answer: string };
type Message = { role: string; content?: string; tool_calls?: unknown[]; tool_call_id?: string };

function messagesOf(request: FakeModelRequest): Message[] {
  return (request.body as { messages?: Message[] }).messages ?? [];
}

/** A request whose last message is the user's (or another's) and says `text`. */
function lastSays(text: string) {
  return (request: FakeModelRequest) => {
    const last = messagesOf(request).at(-1);
    return last?.role === "user" && (last.content ?? "").includes(text);
  };
}

/** A request answering a tool's result. */
function afterTool(request: FakeModelRequest): boolean {
  return messagesOf(request).at(-1)?.role === "tool";
}

function toolNames(request: FakeModelRequest): string[] {
  return ((request.body as { tools?: { function: { name: string } }[] }).tools ?? []).map((t) =>
    t.function.name
  );
}

async function startAgent(home: TempHome, name: string, modelUrl: string): Promise<string> {
  const { id } = await runJson<{ id: string }>(
    ["agent", "create", name, "--model-url", modelUrl, "--model", "fake-model"],
    home,
  );
  return id;
}

/** Resolves once `count` jobs were fired by the agent's runner (its bridge's log). */
function fired(home: TempHome, id: string, count: number) {
  return waitForLog(serviceLog(home, "bridge", id), (e) => e.msg === "Job fired", count);
}

sandboxedTest(
  "a subagent: the parent's start_subagent becomes a narrowed conversation of its own, whose answer comes back to the parent from subagent:<job>, and the parent's answer waits for the owner's next chat (SCH-1, SCH-2, SCH-7)",
  async () => {
    await using model = await serveFakeModel();
    await using home = await tempHome();
    const id = await startAgent(home, "main", model.url);
    await runJson(["agent", "start"], home);
    try {
      const subAsked = model.replyWhen(lastSays("Find the answer"), { kind: "text", text: "It is 42." });
      const parentTold = model.replyWhen(lastSays("It is 42."), {
        kind: "text",
        text: "Your subagent says 42.",
      });
      model.replyWhen(lastSays("research it"), {
        kind: "tool_calls",
        calls: [{
          name: "start_subagent",
          args: { task: "Find the answer", tools: ["read_file", "web_fetch"] },
        }],
      });
      model.replyWhen(afterTool, { kind: "text", text: "A subagent is on it." });
      const both = fired(home, id, 2);
      const chat = await runJson<Chat>(["agent", "chat", "send", "--json", "research it"], home);
      assert.deepEqual([chat.earlier, chat.answer], [[], "A subagent is on it."]);
      const sub = await subAsked.taken;
      // Only the subagent's task in its own conversation, with the tools asked and no more.
      assert.deepEqual(messagesOf(sub).filter((m) => m.role === "user").map((m) => m.content), [
        `(from agent:${id}) Find the answer`,
      ]);
      assert.deepEqual(toolNames(sub).sort(), ["read_file", "web_fetch"]);
      const told = await parentTold.taken;
      const lastUser = messagesOf(told).at(-1)!;
      assert.match(lastUser.content!, /^\(from subagent:j-[a-z0-9]{20}\) It is 42\.$/);
      await both;
      model.reply("You are welcome.");
      const next = await runJson<Chat>(["agent", "chat", "send", "--json", "thanks"], home);
      assert.deepEqual([next.earlier, next.answer], [["Your subagent says 42."], "You are welcome."]);
      const listed = await runJson<{ jobs: unknown[] }>(["agent", "schedule", "list", "--json"], home);
      assert.deepEqual(listed.jobs, [], "each job is gone once delivered");
    } finally {
      await runJson(["agent", "stop"], home);
    }
  },
);

sandboxedTest(
  "a team: A's send reaches B's conversation with A from agent:A, B's answer comes back to A's conversation from agent:B, and A's answer waits for the owner's next chat (TEAM-5, TEAM-6, TEAM-7)",
  async () => {
    await using model = await serveFakeModel();
    await using home = await tempHome();
    const a = await startAgent(home, "ann", model.url);
    const b = await startAgent(home, "bo", model.url);
    await runJson(["agent", "team", "create", "crew"], home);
    await runJson(["agent", "team", "add", "crew", "ann", "--purpose", "Plans the work"], home);
    await runJson(["agent", "team", "add", "crew", "bo", "--purpose", "Reviews the work"], home);
    await runJson(["agent", "start", "--agent", "ann"], home);
    await runJson(["agent", "start", "--agent", "bo"], home);
    try {
      const bAsked = model.replyWhen(lastSays("please review the plan"), {
        kind: "text",
        text: "Looks good.",
      });
      const aTold = model.replyWhen(lastSays("Looks good."), {
        kind: "text",
        text: "Bo says it looks good.",
      });
      model.replyWhen(lastSays("ask bo"), {
        kind: "tool_calls",
        calls: [{ name: "send", args: { to: "bo", text: "please review the plan" } }],
      });
      model.replyWhen(afterTool, { kind: "text", text: "Asked Bo." });
      // A's runner fires both: its message to B, then B's answer, kept as a job of its own (TEAM-6).
      const both = fired(home, a, 2);
      const chat = await runJson<Chat>(["agent", "chat", "send", "--json", "--agent", "ann", "ask bo"], home);
      assert.equal(chat.answer, "Asked Bo.");
      const toB = await bAsked.taken;
      assert.deepEqual(messagesOf(toB).filter((m) => m.role === "user").map((m) => m.content), [
        `(from agent:${a}) please review the plan`,
      ]);
      const toA = await aTold.taken;
      assert.equal(messagesOf(toA).at(-1)!.content, `(from agent:${b}) Looks good.`);
      await both;
      model.reply("Good.");
      const next = await runJson<Chat>(["agent", "chat", "send", "--json", "--agent", "ann", "and?"], home);
      assert.deepEqual([next.earlier, next.answer], [["Bo says it looks good."], "Good."]);
      const bJobs = await runJson<{ jobs: unknown[] }>([
        "agent",
        "schedule",
        "list",
        "--json",
        "--agent",
        "bo",
      ], home);
      assert.deepEqual(bJobs.jobs, [], "B set nothing: its answer travelled back on A's job");
    } finally {
      await runJson(["agent", "stop", "--agent", "ann"], home);
      await runJson(["agent", "stop", "--agent", "bo"], home);
    }
  },
);

sandboxedTest(
  "two agents told to answer each other for ever stop at the cap: each send is one more hop, the send past [tool.scheduler] hops is refused to the model saying why, and nothing more is fired (SCH-10, TEAM-8)",
  async () => {
    await using model = await serveFakeModel({ models: ["fake-ann", "fake-bo"] });
    await using home = await tempHome();
    const ids: Record<string, string> = {};
    for (const name of ["ann", "bo"]) {
      ({ id: ids[name] } = await runJson<{ id: string }>(
        ["agent", "create", name, "--model-url", model.url, "--model", `fake-${name}`],
        home,
      ));
    }
    await runJson(["agent", "team", "create", "loop"], home);
    await runJson(["agent", "team", "add", "loop", "ann", "--purpose", "Pings"], home);
    await runJson(["agent", "team", "add", "loop", "bo", "--purpose", "Pongs"], home);
    const file = `${home.paths.teams}/loop.toml`;
    await Deno.writeTextFile(file, `${await Deno.readTextFile(file)}\n[spec.tool.scheduler]\nhops = 3\n`);
    // Each agent answers every ping by sending the next to the other: for ever, but for the cap.
    // Each turn answers the messages since its last answer: a ping by sending the next one on
    // (a message that came while a turn ran is steered into it, a tool's result beside it).
    const pings: string[] = [];
    model.replyEach((request) => {
      const self = (request.body as { model?: string }).model === "fake-ann" ? "ann" : "bo";
      const messages = messagesOf(request);
      const fresh = messages.slice(messages.findLastIndex((m) => m.role === "assistant") + 1);
      const ping = fresh.find((m) => m.role === "user" && /ping \d+$/.test(m.content ?? ""));
      if (ping) {
        pings.push(`${self}: ${ping.content}`);
        const next = Number(/ping (\d+)$/.exec(ping.content!)![1]) + 1;
        const to = self === "ann" ? "bo" : "ann";
        return { kind: "tool_calls", calls: [{ name: "send", args: { to, text: `ping ${next}` } }] };
      }
      const tool = fresh.some((m) => m.role === "tool");
      return { kind: "text", text: tool ? "Passed it on." : "Noted." };
    });
    await runJson(["agent", "start", "--agent", "ann"], home);
    await runJson(["agent", "start", "--agent", "bo"], home);
    try {
      // ann's runner fires its pings 1 and 3 and bo's answer to ping 1; bo's, its ping 2 and ann's
      // answer to it. bo's answer to ping 3 would be hop 4: not made.
      const annFired = fired(home, ids.ann!, 3);
      const boFired = fired(home, ids.bo!, 2);
      const past = waitForLog(
        serviceLog(home, "bridge", ids.ann!),
        (e) => e.msg === "A job's answer passes the hop cap: it is not sent",
      );
      const chat = await runJson<Chat>(["agent", "chat", "send", "--json", "--agent", "ann", "ping 0"], home);
      assert.equal(chat.answer, "Passed it on.");
      await Promise.all([annFired, boFired, past]);
      assert.deepEqual(pings, [
        "ann: ping 0",
        `bo: (from agent:${ids.ann}) ping 1`,
        `ann: (from agent:${ids.bo}) ping 2`,
        `bo: (from agent:${ids.ann}) ping 3`,
      ]);
      // Every send's result, from each conversation as the model last saw it.
      const conversations = new Map<string, Message[]>();
      for (const request of model.requests) {
        const messages = messagesOf(request);
        const key = `${(request.body as { model?: string }).model} ${
          messages.find((m) => m.role === "user")?.content
        }`;
        if (messages.length > (conversations.get(key)?.length ?? 0)) conversations.set(key, messages);
      }
      const said = [...conversations.values()].flat().filter((m) => m.role === "tool").map((m) => m.content!);
      assert.equal(said.length, 4, said.join("\n"));
      assert.equal(said.filter((r) => r.startsWith("Sent to ")).length, 3);
      assert.match(
        said.find((r) => !r.startsWith("Sent to "))!,
        /already travelled 3 hops between agents, and the cap is 3/,
      );
      for (const name of ["ann", "bo"]) {
        const listed = await runJson<{ jobs: unknown[] }>([
          "agent",
          "schedule",
          "list",
          "--json",
          "--agent",
          name,
        ], home);
        assert.deepEqual(listed.jobs, [], `${name} has nothing left to fire`);
      }
    } finally {
      await runJson(["agent", "stop", "--agent", "ann"], home);
      await runJson(["agent", "stop", "--agent", "bo"], home);
    }
  },
);
