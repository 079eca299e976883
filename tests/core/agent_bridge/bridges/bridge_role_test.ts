import assert from "node:assert/strict";
import { join } from "node:path";
import { decodeKey } from "../../../../core/base/mod.ts";
import { loadSettings, sendSocketPath, storeSocketPath } from "../../../../core/agent/mod.ts";
import { bridgeStore, sqliteStore } from "../../../../core/harness/store/mod.ts";
import { heldDir, takeHeld } from "../../../../connections/link/mod.ts";
import { serveFakeModel } from "../../../fakes/fake_model.ts";
import { runCli, runJson, tempHome } from "../../../support/mod.ts";
import { sendOnWayIn } from "../../../../core/agent_bridge/mod.ts";
import { sqliteStorePath } from "../../../../core/agent_bridge/mod.ts";

Deno.test("lnk agent start serves the store bridge and the way in; a SQLite spec keeps Link Harness's conversations outside (TRN-14, LOC-5)", async () => {
  await using model = await serveFakeModel({ defaultText: "Kept outside." });
  await using home = await tempHome();
  const { id } = await runJson<{ id: string }>(
    ["agent", "create", "--model-url", model.url, "--model", "fake-model"],
    home,
  );
  const layout = home.paths.agentFolder("main");
  const specPath = join(layout, "Config", "spec.toml");
  await Deno.writeTextFile(
    specPath,
    (await Deno.readTextFile(specPath)).replace('store = "files"', 'store = "sqlite"'),
  );
  await runJson(["agent", "start"], home);
  try {
    const sent = await runCli(["agent", "chat", "send", "hi"], home);
    assert.deepEqual(sent, { code: 0, stdout: "Kept outside.\n", stderr: "" });
    const key = decodeKey(await Deno.readTextFile(home.paths.keyFile(id)));
    const { owner } = await loadSettings(home.paths, id);
    {
      await using direct = sqliteStore(sqliteStorePath(home.paths, id));
      const events = await direct.read("link:main");
      assert.equal(events[0]?.event.type, "message");
      assert.deepEqual(await direct.list(), ["link:main"]);
    }
    const chats = await Array.fromAsync(Deno.readDir(join(layout, "Agent", "chats")));
    assert.deepEqual(chats.filter((e) => e.name.includes("sqlite") || e.name.startsWith("link")), []);
    await using store = bridgeStore({ socket: storeSocketPath(home.paths, id), agentId: id, owner, key });
    assert.deepEqual(await store.list(), ["link:main"]);
    const caller = { agentId: id, owner, key };
    const message = { connection: "link", thread: "link:main", text: "Reminder" };
    assert.deepEqual(await sendOnWayIn(sendSocketPath(home.paths, id), caller, message), { held: true });
    model.reply("Noted.");
    const next = await runCli(["agent", "chat", "send", "thanks"], home);
    assert.deepEqual(next, { code: 0, stdout: "Reminder\n\nNoted.\n", stderr: "" });
    assert.deepEqual(await takeHeld(heldDir(home.paths, id), "link:main"), []);
  } finally {
    await runJson(["agent", "stop"], home);
  }
});
