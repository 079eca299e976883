import assert from "node:assert/strict";
import { loadSettings, updateSettings } from "../../../core/agent/mod.ts";
import { newAgentKey } from "../../../core/base/mod.ts";
import { listenForWebhooks } from "../../../core/webhooks/mod.ts";
import { runJson, tempHome } from "../../support/mod.ts";

Deno.test("WHK-2: a listener with no port kept takes one the system picks, keeps it, and takes the same one each time after", async () => {
  await using home = await tempHome();
  const { id } = await runJson<{ id: string }>(["agent", "create", "work"], home);
  const none = await listenForWebhooks(home.paths, await loadSettings(home.paths, id), {
    key: newAgentKey(),
  });
  assert.equal(none, undefined, "an agent with no webhooks listens");
  await updateSettings(
    home.paths,
    id,
    (s) => ({ ...s, webhooks: { hooks: { gh: { sift: "github", created: "x" } } } }),
  );
  const ports: number[] = [];
  for (let i = 0; i < 3; i++) {
    await using listener = await listenForWebhooks(home.paths, await loadSettings(home.paths, id), {
      key: newAgentKey(),
    });
    ports.push(listener!.port);
    assert.equal((await loadSettings(home.paths, id)).webhooks?.port, ports[0]);
  }
  assert.deepEqual(ports, [ports[0], ports[0], ports[0]]);
});

Deno.test("WHK-1: a listener whose kept port another program holds is not opened, and the port is kept", async () => {
  await using home = await tempHome();
  const { id } = await runJson<{ id: string }>(["agent", "create", "work"], home);
  using squatter = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (squatter.addr as Deno.NetAddr).port;
  await updateSettings(home.paths, id, (s) => ({ ...s, webhooks: { port, hooks: {} } }));
  const listener = await listenForWebhooks(home.paths, await loadSettings(home.paths, id), {
    key: newAgentKey(),
  });
  assert.equal(listener, undefined);
  assert.equal((await loadSettings(home.paths, id)).webhooks?.port, port);
});

Deno.test("WHK-5: an agent whose harness became one that cannot keep who a message is from does not listen", async () => {
  await using home = await tempHome();
  const { id } = await runJson<{ id: string }>(["agent", "create", "work"], home);
  await runJson(["agent", "webhook", "add", "gh", "--sift", "github"], home);
  const settings = await updateSettings(home.paths, id, (s) => ({ ...s, harness: "mini" }));
  assert.equal(await listenForWebhooks(home.paths, settings, { key: newAgentKey() }), undefined);
});
