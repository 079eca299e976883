import assert from "node:assert/strict";
import { makeProof, newAgentKey, newChallenge } from "../../../core/base/mod.ts";
import { CHALLENGE_TTL_MS, type EndpointConn, EndpointGuard } from "../../../connections/mod.ts";
import { FakeClock } from "../../support/fake_clock.ts";

const ID = "guardagent01";
const key = newAgentKey();

function connection(): EndpointConn & { end(): void } {
  const closed = new AbortController();
  return { closed: closed.signal, end: () => closed.abort() };
}

/** A request proved with `challenge`, as a caller holding the key sends it. */
function proved(challenge: string, proofKey = key): Request {
  const proof = makeProof(proofKey, "link-caller-v1", challenge, ID);
  return new Request("http://endpoint/acp", {
    method: "POST",
    headers: { "Link-Agent-Id": ID, "Link-Proof": `${challenge} ${proof}` },
  });
}

/** The challenge the endpoint's proof answer gives on `conn`. */
function challengeOn(guard: EndpointGuard, conn: EndpointConn): string {
  const answer = guard.answerProof(
    new Request("http://endpoint/_link/proof", {
      headers: { "Link-Agent-Id": ID, "Link-Challenge": newChallenge() },
    }),
    conn,
  );
  assert.equal(answer.status, 200);
  return answer.headers.get("link-challenge")!;
}

function guardOf(clock = new FakeClock()): EndpointGuard {
  return new EndpointGuard({ keyFor: (id) => (id === ID ? key : undefined), clock });
}

Deno.test("attack: EndpointGuard.verify() refuses a challenge given on another connection, which keeps it (BRG-2)", () => {
  const guard = guardOf();
  const first = connection();
  const second = connection();
  const challenge = challengeOn(guard, first);
  assert.deepEqual(guard.verify(proved(challenge), second), {
    ok: false,
    reason: "the challenge was given on another connection",
  });
  assert.deepEqual(guard.verify(proved(challenge), first), { ok: true, agentId: ID });
  assert.deepEqual(guard.verify(proved(challenge), first), { ok: false, reason: "no live challenge" });
});

Deno.test("EndpointGuard.verify() spends a challenge on its own connection even when the proof is wrong", () => {
  const guard = guardOf();
  const conn = connection();
  const challenge = challengeOn(guard, conn);
  assert.deepEqual(guard.verify(proved(challenge, newAgentKey()), conn), {
    ok: false,
    reason: "wrong proof",
  });
  assert.deepEqual(guard.verify(proved(challenge), conn), { ok: false, reason: "no live challenge" });
});

Deno.test("EndpointGuard drops a connection's challenges once it ends, and any after their time", async () => {
  const clock = new FakeClock();
  const guard = guardOf(clock);
  const ended = connection();
  const late = connection();
  const gone = challengeOn(guard, ended);
  const old = guard.nextChallenge(ID, late)["Link-Challenge"]!;
  ended.end();
  assert.deepEqual(guard.verify(proved(gone), ended), { ok: false, reason: "no live challenge" });
  await clock.advance(CHALLENGE_TTL_MS + 1);
  assert.deepEqual(guard.verify(proved(old), late), { ok: false, reason: "no live challenge" });
});
