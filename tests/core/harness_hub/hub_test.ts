import assert from "node:assert/strict";
import { isLinkError, newAgentKey } from "../../../core/base/mod.ts";
import { startHub } from "./_support.ts";

async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (err) {
    assert.ok(isLinkError(err), `not a LinkError: ${err}`);
    return { code: err.code, message: err.message };
  }
  assert.fail("the message was answered");
}

Deno.test("the hub serves a stdio ACP agent as the agent's endpoint: proof, one session per thread, answers streamed", async () => {
  await using hub = await startHub();
  assert.equal(await hub.ask("hello"), "echo(1): hello");
  assert.equal(await hub.ask("again"), "echo(2): again", "the thread keeps its session");
  assert.equal(
    await hub.ask("elsewhere", "telegram:42"),
    "echo(1): elsewhere",
    "another thread, another session",
  );
  // The caller must prove the agent's key: a squatter's key gets nothing.
  assert.equal((await failure(hub.ask("hi", "link:main", newAgentKey()))).code, "PROOF_FAILED");
  // A permission the agent asks is answered with its allow-once option.
  assert.equal(await hub.ask("ask"), "echo(3): ask (permission: yes)");
});

Deno.test("an ACP program that dies fails the message with its stderr, and is started again at the next, keeping the thread's session", async () => {
  await using hub = await startHub();
  assert.equal(await hub.ask("one"), "echo(1): one");
  const died = await failure(hub.ask("die"));
  assert.equal(died.code, "SERVICE_FAILED");
  assert.match(died.message, /exited \(code 3\): dying on purpose/);
  // Started again, the thread's session is loaded, not begun anew.
  assert.equal(await hub.ask("two"), "echo(2): two");
});

Deno.test("an ACP program that prints garbage or hangs fails the message, and the hub answers the next", async () => {
  await using hub = await startHub({ quietTimeoutMs: 300 });
  const garbage = await failure(hub.ask("garbage"));
  assert.equal(garbage.code, "SERVICE_FAILED");
  assert.match(garbage.message, /printed something other than ACP: "this is not ACP"/);
  assert.equal(await hub.ask("after"), "echo(1): after");
  const hung = await failure(hub.ask("hang"));
  assert.equal(hung.code, "TIMEOUT");
  assert.match(hung.message, /said nothing/);
  assert.equal(await hub.ask("still here"), "echo(2): still here");
});

Deno.test("an ACP program that does not start, or is not there, is a clear error, and the hub stays up", async () => {
  {
    await using hub = await startHub({ env: { ACP_START: "hang" }, startTimeoutMs: 300 });
    const late = await failure(hub.ask("hi"));
    assert.equal(late.code, "TIMEOUT");
    assert.match(late.message, /did not start/);
  }
  await using missing = await startHub({ command: ["/nonexistent/acp-agent", "--acp"] });
  const err = await failure(missing.ask("hi"));
  assert.equal(err.code, "HARNESS_MISSING");
  assert.match(err.message, /nonexistent\/acp-agent/);
});

Deno.test("an ACP program that asks a sign-in with a variable it was handed is signed in before its first session", async () => {
  await using hub = await startHub({ env: { ACP_NEEDS_AUTH: "1", OPENAI_API_KEY: "placeholder" } });
  assert.equal(await hub.ask("hello"), "echo(1): hello");
  // Without the variable there is nothing to sign in with: its refusal reaches the caller.
  await using without = await startHub({ env: { ACP_NEEDS_AUTH: "1" } });
  const err = await failure(without.ask("hello"));
  assert.match(err.message, /Authentication required/);
});

Deno.test("the hub tells the door whether a prompt runs, so the agent does not sleep under it (PRC-10)", async () => {
  const { openEndpoint } = await import("../../../connections/mod.ts");
  await using hub = await startHub({ quietTimeoutMs: 60_000 });
  const caller = { agentId: hub.agent.id, agentName: hub.agent.name, key: hub.agent.key };
  const busy = async () => {
    await using endpoint = await openEndpoint({ path: hub.socket }, caller);
    return JSON.parse((await endpoint.request("GET", "/_link/busy")).text);
  };
  assert.deepEqual(await busy(), { turns: 0, locks: 0 });
  const hanging = failure(hub.ask("hang"));
  for (let i = 0; i < 1000 && (await busy()).turns === 0; i++) { /* until its prompt runs */ }
  assert.deepEqual(await busy(), { turns: 1, locks: 0 });
  await hub.hub[Symbol.asyncDispose]();
  assert.equal((await hanging).code, "SERVICE_FAILED");
});
