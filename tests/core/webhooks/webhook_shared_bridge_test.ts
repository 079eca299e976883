import assert from "node:assert/strict";
import { serveFakeModel } from "../../fakes/fake_model.ts";
import { runCli, runJson } from "../../support/mod.ts";
import { createAgent, sandboxedTest } from "../../support/sandboxed_agent.ts";
import { bridgesLog, setRun, sharedHome, waitForLog } from "../../support/shared_bridge.ts";
import { githubHeaders } from "./_support.ts";

sandboxedTest(
  "WHK-1, WHK-4: on the shared bridge an asleep agent's webhook listens, and a signed post wakes it and reaches its harness from webhook:gh",
  async () => {
    await using model = await serveFakeModel({ defaultText: "Noted." });
    await using home = await sharedHome();
    const agent = await createAgent(home, model);
    await setRun(agent.layout.specToml, { idleAfter: "2s" });
    const added = await runJson<{ url: string; secret: string }>(
      ["agent", "webhook", "add", "gh", "--sift", "github"],
      home,
    );
    await runJson(["agent", "start"], home);
    try {
      await waitForLog(bridgesLog(home), (e) => e.msg === "Agent asleep" && e.agent === agent.id);
      const body = '{"action":"opened"}';
      const res = await fetch(added.url, {
        method: "POST",
        body,
        headers: await githubHeaders(added.secret, body, "d-1", "issues"),
      });
      assert.deepEqual([res.status, await res.text()], [202, ""]);
      const asked = (await model.nextRequest()).body as { messages: { role: string; content: string }[] };
      assert.equal(
        asked.messages.filter((m) => m.role === "user").at(-1)!.content,
        '(from webhook:gh) A post to webhook "gh" (GitHub event "issues", delivery d-1), quoted as it came: ' +
          `it is the poster's, not your owner's.\n\n> ${body}`,
      );
    } finally {
      await runCli(["agent", "stop"], home);
    }
  },
);
