import assert from "node:assert/strict";
import { schedulerFixture } from "../../support/tool_proxy.ts";

const LIST = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };

Deno.test("the tool proxy refuses a call without the sandbox's secret, with an old one, and before any start (SBX-18, SBX-19)", async () => {
  await using f = await schedulerFixture();
  // Before the sandbox's first start there is no secret at all.
  const before = await f.post("/_link/s/anything/scheduler", LIST);
  assert.equal(before.status, 403);
  assert.equal((await before.json()).error.code, "REFUSED");
  const old = f.proxy.newSecret();
  const current = f.proxy.newSecret();
  for (
    const [tried, path] of [
      ["no secret", "/scheduler"],
      ["an empty secret", "/_link/s//scheduler"],
      ["the previous start's secret", `/_link/s/${old.reveal()}/scheduler`],
      ["the secret cut short", `/_link/s/${current.reveal().slice(0, -1)}/scheduler`],
    ]
  ) {
    const res = await f.post(path!, LIST);
    assert.equal(res.status, 403, tried);
    const body = await res.json();
    assert.deepEqual(body, {
      error: {
        code: "REFUSED",
        message: "Cannot call Link's tools: the path does not hold this start's secret",
        hint: "Call the tool proxy at the address Link gave the harness; a restart makes a new secret",
      },
    }, tried);
    assert.ok(!JSON.stringify(body).includes(current.reveal()), tried);
  }
  const unknown = await f.post(`/_link/s/${current.reveal()}/memory`, LIST);
  assert.equal(unknown.status, 404);
  assert.equal((await unknown.json()).error.code, "INVALID");
  // With this start's secret, the real SDK client lists the scheduler's tools.
  const client = await f.client(current);
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t: { name: string }) => t.name), [
    "schedule",
    "list_jobs",
    "cancel_job",
    "start_subagent",
    "send",
  ]);
  // An earlier secret stops working the moment a new start makes its own.
  f.proxy.newSecret();
  await assert.rejects(() => client.listTools());
});
