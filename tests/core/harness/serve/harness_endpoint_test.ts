import assert from "node:assert/strict";
import { join } from "node:path";
import { encodeKey, makeProof, newAgentKey, newChallenge } from "../../../../core/base/mod.ts";
import { Http1Connection, openEndpoint, readText } from "../../../../connections/mod.ts";
import { openHarnessEndpoint } from "../../../../core/harness/serve/harness_endpoint.ts";
import { servedHeads } from "../../../../core/harness/serve/served_heads.ts";
import { serveFakeModel } from "../../../fakes/fake_model.ts";
import { fixtureAgent } from "../../../support/harness_fixture.ts";

const SESSION_NEW = {
  jsonrpc: "2.0",
  id: 1,
  method: "session/new",
  params: { _meta: { "link.local/thread": "link:main" } },
};

Deno.test("openHarnessEndpoint() answers the proof before its agents are loaded, and the calls after it once they are (PRC-13)", async () => {
  await using model = await serveFakeModel();
  const dir = await Deno.makeTempDir({ prefix: "lnk-endpoint-" });
  try {
    const agent = fixtureAgent(model, dir, { tools: "none" });
    const key = newAgentKey();
    await using endpoint = await openHarnessEndpoint({
      socket: join(dir, "endpoint.sock"),
      agents: [{ id: agent.id, name: agent.name, key }],
    });
    // The proof both ways is done: the endpoint proved the key with nothing loaded.
    await using chat = await openEndpoint({ path: join(dir, "endpoint.sock") }, {
      agentId: agent.id,
      agentName: agent.name,
      key,
    });
    const created = chat.request("POST", "/acp", SESSION_NEW);
    const turns = await endpoint.serve([{ agent, key }]);
    // The challenge the early endpoint handed out holds for the full one.
    const res = await created;
    assert.deepEqual({ status: res.status, body: JSON.parse(res.text) }, {
      status: 200,
      body: { jsonrpc: "2.0", id: 1, result: { sessionId: "link:main" } },
    });
    assert.deepEqual(turns.map((t) => t.agent.id), [agent.id]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openHarnessEndpoint() answers a call held for agents that could not be loaded with 500 and why", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lnk-endpoint-" });
  try {
    const key = newAgentKey();
    await using endpoint = await openHarnessEndpoint({
      socket: join(dir, "endpoint.sock"),
      agents: [{ id: "a1b2c3d4", name: "main", key }],
    });
    await using chat = await openEndpoint({ path: join(dir, "endpoint.sock") }, {
      agentId: "a1b2c3d4",
      agentName: "main",
      key,
    });
    const held = chat.request("POST", "/acp", SESSION_NEW);
    endpoint.fail(new Error("its store cannot be opened"));
    const res = await held;
    assert.deepEqual({ status: res.status, body: JSON.parse(res.text) }, {
      status: 500,
      body: {
        error: { code: "INTERNAL", message: "the harness failed: its store cannot be opened", hint: null },
      },
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("attack: Link Harness's endpoint refuses a challenge handed out on another connection, and takes it on its own (BRG-2)", async () => {
  await using model = await serveFakeModel();
  const dir = await Deno.makeTempDir({ prefix: "lnk-endpoint-" });
  const socket = join(dir, "endpoint.sock");
  const connect = async () => new Http1Connection(await Deno.connect({ transport: "unix", path: socket }));
  try {
    const agent = fixtureAgent(model, dir, { tools: "none" });
    const key = newAgentKey();
    await using endpoint = await openHarnessEndpoint({
      socket,
      agents: [{ id: agent.id, name: agent.name, key }],
    });
    const asked = await connect();
    const thief = await connect();
    try {
      const proof = await asked.request({
        method: "GET",
        path: "/_link/proof",
        headers: { "Link-Agent-Id": agent.id, "Link-Challenge": newChallenge() },
      });
      await readText(proof.body);
      const challenge = proof.headers.get("link-challenge")!;
      const call = (http: Http1Connection) =>
        http.request({
          method: "POST",
          path: "/acp",
          headers: {
            "Link-Agent-Id": agent.id,
            "Link-Proof": `${challenge} ${makeProof(key, "link-caller-v1", challenge, agent.id)}`,
          },
          body: JSON.stringify(SESSION_NEW),
        });
      // Sent before the agents are loaded, judged once they are.
      const stolen = call(thief);
      await endpoint.serve([{ agent, key }]);
      const refused = await stolen;
      assert.deepEqual({ status: refused.status, body: JSON.parse(await readText(refused.body)) }, {
        status: 401,
        body: {
          error: {
            code: "PROOF_FAILED",
            message:
              "The caller did not prove the agent's key: the challenge was given on another connection",
            hint: null,
          },
        },
      });
      const taken = await call(asked);
      assert.deepEqual({ status: taken.status, body: JSON.parse(await readText(taken.body)) }, {
        status: 200,
        body: { jsonrpc: "2.0", id: 1, result: { sessionId: "link:main" } },
      });
    } finally {
      asked.close();
      thief.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("servedHeads() reads each agent's id, name and key, and refuses a line that lacks them", () => {
  const key = newAgentKey();
  const line = JSON.stringify({ agents: [{ id: "a1b2c3d4", name: "main", key: encodeKey(key), spec: {} }] });
  assert.deepEqual(servedHeads(line), [{ id: "a1b2c3d4", name: "main", key }]);
  for (const bad of ["not json", "{}", '{"agents":[]}', '{"agents":[{"id":"a","name":"b"}]}']) {
    assert.throws(() => servedHeads(bad), { name: "LinkError", code: "USAGE" });
  }
  assert.throws(
    () => servedHeads(JSON.stringify({ agents: [{ id: "a", name: "b", key: "zz" }] })),
    { name: "LinkError", code: "USAGE" },
  );
});
