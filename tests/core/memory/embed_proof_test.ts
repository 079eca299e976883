/**
 * The memory embedding binding proof (MEM-4..7) at the agent's unix embedding endpoint, against
 * the fake embeddings provider on loopback: each attack names what it tried.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { embeddingProof, LinkPaths, newAgentKey, Secret } from "../../../core/base/mod.ts";
import {
  bindingEmbedder,
  type EmbedCall,
  MemoryIndex,
  searchMemory,
  serveEmbedEndpoint,
} from "../../../core/memory/mod.ts";
import { answerMemory, MemoryService } from "../../../core/memory_service/mod.ts";
import { serveFakeEmbeddings } from "../../fakes/fake_embeddings.ts";
import { FakeClock } from "../../support/fake_clock.ts";
import { memoryFolder } from "./_support.ts";

const OWNER = `local-m1-${Deno.uid()}`;

async function endpointFor(agentId: string, key = newAgentKey()) {
  const fake = await serveFakeEmbeddings();
  const dir = await Deno.makeTempDir({ prefix: "lnk-embed-" });
  const calls: EmbedCall[] = [];
  const endpoint = await serveEmbedEndpoint({
    path: join(dir, "embed", `${agentId}.sock`),
    provider: () => Promise.resolve({ baseUrl: fake.url, key: new Secret("provider-key") }),
    onCall: (c) => calls.push(c),
  });
  const proof = embeddingProof(key, { agentId, owner: OWNER });
  endpoint.bind({ agentId, owner: OWNER, proof: new Secret(proof) });
  return {
    fake,
    endpoint,
    calls,
    proof,
    key,
    async [Symbol.asyncDispose]() {
      await endpoint.close();
      await fake[Symbol.asyncDispose]();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

async function post(
  socket: string,
  headers: Record<string, string>,
  body: unknown = { model: "e", input: ["hi"] },
) {
  const client = Deno.createHttpClient({ proxy: { transport: "unix", path: socket } });
  try {
    const res = await fetch("http://embed/v1/embeddings", {
      client,
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  } finally {
    client.close();
  }
}

Deno.test("the embedding endpoint takes its binding's proof on its unix socket, and the provider gets no proof (MEM-4)", async () => {
  await using e = await endpointFor("a1");
  const answer = await post(e.endpoint.socket, { authorization: `Link-Binding a1:${e.proof}` });
  assert.equal(answer.status, 200);
  assert.equal(answer.body.data.length, 1);
  assert.equal(e.fake.requests.length, 1);
  const sent = e.fake.requests[0]!.headers;
  assert.equal(sent.authorization, "Bearer provider-key");
  assert.ok(!JSON.stringify(e.fake.requests).includes(e.proof), "the HTTP provider never receives the proof");
  assert.ok(!JSON.stringify(e.fake.requests).toLowerCase().includes("link-binding"));
  assert.equal((await Deno.lstat(e.endpoint.socket)).mode! & 0o777, 0o600);
});

Deno.test("attack: a forged owner header is never read; the owner is the kernel's and the binding's (MEM-5)", async () => {
  await using e = await endpointFor("a1");
  const forged = {
    authorization: `Link-Binding a1:${e.proof}`,
    "link-owner": "acct-attacker",
    "x-link-owner": "acct-attacker",
    owner: "acct-attacker",
  };
  assert.equal((await post(e.endpoint.socket, forged)).status, 200);
  assert.deepEqual(e.calls, [{ agent: "a1", owner: OWNER, uid: Deno.uid() }]);
});

Deno.test("attack: another agent's proof, or this agent's name with another's proof, is refused (MEM-7)", async () => {
  await using e = await endpointFor("a1");
  const other = embeddingProof(newAgentKey(), { agentId: "b2", owner: OWNER });
  for (
    const authorization of [
      `Link-Binding b2:${other}`,
      `Link-Binding a1:${other}`,
      `Link-Binding b2:${e.proof}`,
    ]
  ) {
    const answer = await post(e.endpoint.socket, { authorization });
    assert.equal(answer.status, 401, authorization);
    assert.equal(answer.body.error.code, "PROOF_FAILED");
  }
  for (const authorization of ["", `Bearer ${e.proof}`, `Link-Binding a1:${e.proof.toUpperCase()}`]) {
    assert.equal((await post(e.endpoint.socket, { authorization })).body.error.code, "PROOF_FAILED");
  }
  assert.equal(e.fake.requests.length, 0, "nothing refused reached the provider");
});

Deno.test("attack: an old key's proof is refused once the agent's key changed (a restart), the new one taken (MEM-7)", async () => {
  await using e = await endpointFor("a1");
  const old = e.proof;
  const fresh = embeddingProof(newAgentKey(), { agentId: "a1", owner: OWNER });
  e.endpoint.bind({ agentId: "a1", owner: OWNER, proof: new Secret(fresh) });
  assert.equal((await post(e.endpoint.socket, { authorization: `Link-Binding a1:${old}` })).status, 401);
  assert.equal((await post(e.endpoint.socket, { authorization: `Link-Binding a1:${fresh}` })).status, 200);
  e.endpoint.bind(undefined);
  assert.equal((await post(e.endpoint.socket, { authorization: `Link-Binding a1:${fresh}` })).status, 401);
});

Deno.test("attack: a proof over TCP: memory takes no embedding address but a unix socket, and sends nothing there (MEM-4)", async () => {
  await using m = await memoryFolder();
  const tcp = await serveFakeEmbeddings();
  try {
    const proof = embeddingProof(newAgentKey(), { agentId: "a1", owner: OWNER });
    const service = new MemoryService(new LinkPaths(m.root), OWNER, {
      lingerMs: 5_000,
      clock: new FakeClock(),
    });
    await using _service = service;
    const res = await answerMemory(
      service,
      new Request("http://memory/attach", {
        method: "POST",
        body: JSON.stringify({ agent: "a1", embed: { socket: tcp.url, proof, model: "e" } }),
      }),
    );
    assert.equal(res.status, 400);
    assert.equal((await res.json()).error.code, "INVALID");
    assert.equal(tcp.requests.length, 0);
  } finally {
    await tcp[Symbol.asyncDispose]();
  }
});

Deno.test("the proof is a redacted Secret in what memory holds and says (MEM-6)", () => {
  const proof = embeddingProof(newAgentKey(), { agentId: "a1", owner: OWNER });
  const embedder = bindingEmbedder({
    socket: "/nowhere.sock",
    agentId: "a1",
    proof: new Secret(proof),
    model: "e",
  });
  assert.ok(!JSON.stringify(embedder).includes(proof));
  assert.ok(!Deno.inspect(embedder, { depth: 10 }).includes(proof));
});

Deno.test("searchMemory finds a note by meaning through the endpoint, and falls back to words on a 429 or garbage, keeping no half answer", async () => {
  await using m = await memoryFolder();
  await using e = await endpointFor("a1");
  await m.note("pets", "My cat is called Miso");
  await m.note("plans", "Dinner at the pizza place on Friday");
  const embedder = bindingEmbedder({
    socket: e.endpoint.socket,
    agentId: "a1",
    proof: new Secret(e.proof),
    model: "e",
  });
  using index = await MemoryIndex.open(m.index, m.opening);
  e.fake.failNext(429);
  const limited = await searchMemory(index, "kitten", { embedder });
  assert.equal(limited.by, "words");
  assert.match(limited.note!, /answered 429/);
  assert.deepEqual(limited.hits, []);
  assert.deepEqual(index.counts("e"), { chunks: 2, embedded: 0 });
  e.fake.garbageNext();
  const garbage = await searchMemory(index, "kitten", { embedder });
  assert.match(garbage.note!, /something other than vectors/);
  assert.deepEqual(index.counts("e"), { chunks: 2, embedded: 0 });
  const meant = await searchMemory(index, "kitten", { embedder });
  assert.equal(meant.by, "words and meaning");
  assert.equal(meant.note, undefined);
  assert.deepEqual(meant.hits[0]!.origin, { kind: "note", note: "pets", line: 1 });
  assert.deepEqual(meant.hits[0]!.by, ["meaning"]);
  assert.deepEqual(index.counts("e"), { chunks: 2, embedded: 2 });
});

Deno.test("bindingEmbedder gives up on an endpoint that never answers after 30 s, as PROVIDER_ERROR", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lnk-embed-" });
  const socket = join(dir, "silent.sock");
  const release = Promise.withResolvers<void>();
  const asked = Promise.withResolvers<void>();
  const server = Deno.serve({ path: socket, transport: "unix", onListen() {} }, async () => {
    asked.resolve();
    await release.promise;
    return new Response("late");
  });
  try {
    const clock = new FakeClock();
    const proof = new Secret(embeddingProof(newAgentKey(), { agentId: "a1", owner: OWNER }));
    const embedder = bindingEmbedder({ socket, agentId: "a1", proof, model: "e", clock });
    const refused = assert.rejects(embedder.embed(["hi"]), { name: "LinkError", code: "PROVIDER_ERROR" });
    await asked.promise;
    await clock.advance(30_000);
    await refused;
  } finally {
    release.resolve();
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
