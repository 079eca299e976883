import assert from "node:assert/strict";
import { answeredPath, DiscordInbox } from "../../../connections/discord/mod.ts";

Deno.test("DiscordInbox keeps messages across a reopen in arrival order and answers each once", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lnk-discord-" });
  try {
    const inbox = await DiscordInbox.open(dir);
    await inbox.keep("20", { id: "20" });
    await inbox.keep("3", { id: "3" });
    await inbox.keep("11", { id: "11" });
    await inbox.finish("3");
    const reopened = await DiscordInbox.open(dir);
    const pending = await reopened.pending();
    assert.deepEqual(pending.map((p) => [p.messageId, p.entry.message]), [["20", { id: "20" }], ["11", {
      id: "11",
    }]]);
    assert.equal(reopened.has("3"), true);
    assert.equal(reopened.has("20"), true);
    assert.equal(reopened.has("99"), false);
    assert.deepEqual(JSON.parse(await Deno.readTextFile(answeredPath(dir))), ["3"]);
    await reopened.save("20", { ...pending[0]!.entry, answer: "done", sent: ["555"] });
    const again = await (await DiscordInbox.open(dir)).pending();
    assert.deepEqual(again[0]!.entry, { message: { id: "20" }, seq: 0, answer: "done", sent: ["555"] });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
