import assert from "node:assert/strict";
import { checkProof, newAgentKey, newChallenge } from "../../../../core/base/mod.ts";
import { Http1Connection, openEndpoint, readText } from "../../../../connections/mod.ts";
import { serveFakeModel } from "../../../fakes/fake_model.ts";
import { harnessFixture, prompt, shape } from "../../../support/harness_fixture.ts";

const TWO_MAINS = [
  { id: "aaaaaa11", owner: "acct-alice", name: "main" },
  { id: "bbbbbb22", owner: "acct-bob", name: "main" },
];

Deno.test("one process serves two owners' mains: routed by Link-Agent-Id, folders, tools and sessions never cross (IDN-9, ADP-5)", async () => {
  await using model = await serveFakeModel({ defaultText: "ok" });
  await using harness = await harnessFixture(model, { agents: TWO_MAINS });
  await using alice = await harness.open(0);
  await using bob = await harness.open(1);
  await alice.call("session/new", {
    _meta: { "link.local/thread": "link:main", "link.local/tools": ["read_file", "list_files"] },
  });
  assert.equal((await prompt(alice, "from alice")).text, "ok");
  assert.equal((await prompt(bob, "from bob")).text, "ok");
  assert.deepEqual(shape(await harness.events("link:main", 0)), [
    [1, "message", "from alice"],
    [2, "turn", [1]],
    [3, "answer", "ok", [1]],
  ]);
  assert.deepEqual(shape(await harness.events("link:main", 1)), [
    [1, "message", "from bob"],
    [2, "turn", [1]],
    [3, "answer", "ok", [1]],
  ]);
  assert.deepEqual(await harness.agents[0]!.store.toolsRead("link:main"), ["read_file", "list_files"]);
  assert.equal(await harness.agents[1]!.store.toolsRead("link:main"), undefined);
  const tools = (i: number) =>
    ((model.requests[i]!.body as { tools?: { function: { name: string } }[] }).tools ?? []).map((t) =>
      t.function.name
    );
  assert.deepEqual(tools(0), ["list_files", "read_file"]);
  assert.ok(tools(1).length > 2, tools(1).join(","));
});

Deno.test("a request naming an agent the process does not run is refused before any model call (ADP-4)", async () => {
  await using model = await serveFakeModel();
  await using harness = await harnessFixture(model, { agents: TWO_MAINS });
  await assert.rejects(
    openEndpoint({ path: harness.socket }, { agentId: "cccccc33", agentName: "main", key: newAgentKey() }),
    { name: "LinkError", code: "PROOF_FAILED" },
  );
  // One it runs, but proved with another agent's key, is refused too.
  await assert.rejects(
    openEndpoint({ path: harness.socket }, { agentId: "aaaaaa11", agentName: "main", key: harness.keys[1]! }),
    { name: "LinkError", code: "PROOF_FAILED" },
  );
  assert.equal(model.requests.length, 0);
});

Deno.test("a request naming no agent is answered as the process's own, the first (ADP-4)", async () => {
  await using model = await serveFakeModel();
  await using harness = await harnessFixture(model, { agents: TWO_MAINS });
  const conn = await Deno.connect({ transport: "unix", path: harness.socket });
  const http = new Http1Connection(conn);
  try {
    const challenge = newChallenge();
    const res = await http.request({
      method: "GET",
      path: "/_link/proof",
      headers: { "Link-Challenge": challenge },
    });
    await readText(res.body);
    assert.equal(res.status, 200);
    const proof = res.headers.get("link-proof") ?? "";
    assert.equal(checkProof(harness.keys[0]!, "link-endpoint-v1", challenge, proof, "aaaaaa11"), true);
    // Two of that name run here: a request naming only the name cannot say which, and is refused.
    const named = await http.request({
      method: "GET",
      path: "/_link/proof",
      headers: { "Link-Challenge": newChallenge(), "Link-Agent": "main" },
    });
    assert.deepEqual({ status: named.status, body: JSON.parse(await readText(named.body)) }, {
      status: 403,
      body: {
        error: { code: "REFUSED", message: "This endpoint does not answer for that agent", hint: null },
      },
    });
  } finally {
    http.close();
  }
});
