import assert from "node:assert/strict";
import { inboxDir } from "../../../connections/signal/mod.ts";
import { serveFakeModel } from "../../fakes/fake_model.ts";
import { serveFakeSignal } from "../../fakes/fake_signal.ts";
import { harnessFixture } from "../../support/harness_fixture.ts";
import { denoScript } from "../../support/store_driver.ts";
import { inboxEmpty, sentCount, textsTo, untilFiles } from "./_support.ts";

const CHILD = new URL("./_carrier_child.ts", import.meta.url);

/** A carrier in a child process, once it says it is connected. */
async function startCarrier(options: Record<string, unknown>) {
  const [command, ...args] = denoScript(CHILD, [JSON.stringify(options)]);
  const child = new Deno.Command(command!, { args, stdin: "null", stdout: "piped", stderr: "inherit" })
    .spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let said = "";
  while (!said.includes("\n")) {
    const chunk = await reader.read();
    assert.equal(chunk.done, false, "the carrier ended before it connected");
    said += chunk.value;
  }
  assert.equal(JSON.parse(said.slice(0, said.indexOf("\n"))).state, "connected");
  return {
    child,
    async [Symbol.asyncDispose]() {
      try {
        child.kill("SIGTERM");
      } catch { /* gone already */ }
      await child.status;
      await reader.cancel().catch(() => {});
    },
  };
}

Deno.test("kill -9 of a child carrier after it kept an envelope and before it answered: answered once after it starts again", async () => {
  await using fake = await serveFakeSignal();
  await using model = await serveFakeModel();
  await using harness = await harnessFixture(model);
  const stateDir = await Deno.makeTempDir({ prefix: "lnk-signal-" });
  try {
    const owner = fake.person("Ada");
    const agent = harness.agents[0]!;
    const options = {
      daemonUrl: fake.url,
      number: fake.account,
      stateDir,
      ownerNumber: owner.number,
      socket: harness.socket,
      agentId: agent.id,
      agentName: agent.name,
      key: [...harness.keys[0]!],
    };
    const reply = model.reply("Answered once", { hold: true });
    {
      await using first = await startCarrier(options);
      const said = fake.personSays(owner, "hi");
      await reply.taken;
      // Kept before it was answered: the turn runs, nothing is sent yet.
      const kept = JSON.parse(
        await Deno.readTextFile(`${inboxDir(stateDir)}/${owner.number}_${said.timestamp}.json`),
      );
      assert.deepEqual(kept.envelope, said);
      assert.deepEqual(fake.sent(owner), []);
      first.child.kill("SIGKILL");
      assert.equal((await first.child.status).signal, "SIGKILL");
    }
    // The turn ends with nobody waiting: the harness keeps its answer for the carrier to come.
    await Deno.mkdir(agent.kept.dir, { recursive: true });
    const keptAnswers = () => [...Deno.readDirSync(agent.kept.dir)].some((e) => e.name.endsWith(".json"));
    const keptNow = untilFiles(agent.kept.dir, keptAnswers);
    reply.release();
    await reply.done;
    await keptNow;
    await using _again = await startCarrier(options);
    await sentCount(fake, owner.number, 1);
    await untilFiles(stateDir, () => inboxEmpty(stateDir));
    assert.deepEqual(textsTo(fake, owner.number), ["Answered once"]);
    assert.equal(model.requests.length, 1);
    // The daemon handing it out again changes nothing: the next message is the only one answered.
    fake.replay();
    const next = model.reply("The next one");
    fake.personSays(owner, "and now");
    await next.done;
    await sentCount(fake, owner.number, 2);
    await untilFiles(stateDir, () => inboxEmpty(stateDir));
    assert.deepEqual(textsTo(fake, owner.number), ["Answered once", "The next one"]);
    assert.equal(model.requests.length, 2);
  } finally {
    await Deno.remove(stateDir, { recursive: true });
  }
});
