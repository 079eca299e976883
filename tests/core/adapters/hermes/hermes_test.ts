/**
 * An agent on Hermes, end to end through `lnk`, with a stand-in for the `hermes` program
 * (tests/fakes/hermes_standin.ts) in its install folder, as the real Hermes cannot be installed
 * here: in its sandbox, behind its proxy, `hermes acp` under the hub answering `lnk agent chat send`
 * with the model configure wrote in HERMES_HOME (ADP-1, ADP-16, PRT-1, SBX-17). The start's install
 * step finds the install folder the test lays out and the endpoint's launcher
 * configures Hermes.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { serveFakeModel } from "../../../fakes/fake_model.ts";
import { runCli, runJson, tempHome } from "../../../support/mod.ts";
import { HOSTED_KEY, OPENAI_ADDRESS, startHostedHarness } from "../../../support/hosted_harness.ts";
import { askEndpoint, howStarted, sandboxedTest } from "../../../support/sandboxed_agent.ts";
import { HERMES_RELEASE } from "../../../../core/adapters/hermes/mod.ts";
import { standInInstall } from "./_support.ts";

interface KitAnswer {
  ok: boolean;
  rows: { check: string; result: "pass" | "fail" | "skipped"; detail: string }[];
}

sandboxedTest(
  "an agent on Hermes (a stand-in for hermes) starts in its sandbox behind its proxy, answers chat send through `hermes acp` with the model configure wrote, passes the kit, and has a config it edited rewritten at the next start (ADP-2, ADP-16, SBX-17)",
  async () => {
    await using model = await serveFakeModel({ defaultText: "Hello from Hermes." });
    await using home = await tempHome();
    await standInInstall(home.paths.installDir("hermes"));
    const { id } = await runJson<{ id: string }>(
      ["agent", "create", "h", "--harness", "hermes", "--model-url", model.url, "--model", "fake-model"],
      home,
    );
    const started = await runJson<{ harness: string; ports: { endpoint: number } }>(
      ["agent", "start", "--agent", "h"],
      home,
    );
    assert.equal(started.harness, "hermes");
    // The start ran the install step in its sandbox first: it found the install there and marked it.
    const marker = JSON.parse(await Deno.readTextFile(`${home.paths.installDir("hermes")}.installed`));
    assert.equal(marker.release, HERMES_RELEASE);
    try {
      const sent = await runCli(["agent", "chat", "send", "--agent", "h", "hi"], home);
      assert.equal(sent.code, 0, sent.stderr);
      assert.equal(sent.stdout.trim(), "Hello from Hermes.");
      assert.deepEqual(await howStarted(home, id), [{ harness: "hermes", sandboxed: true, proxied: true }]);

      // The stand-in asked the model config.yaml names, the one the hub handed the launcher (a
      // loopback model is relayed into the sandbox at its own port), and the model got the prompt.
      const asked = model.requests.at(-1)!;
      assert.equal(asked.path, "/v1/chat/completions");
      const body = asked.body as { model: string; messages: { content: string }[] };
      assert.equal(body.model, "fake-model");
      assert.equal(body.messages.at(-1)?.content, "hi");
      const hermesHome = join(home.paths.agentState(id), "harnesses", "hermes", ".hermes");
      const config = await Deno.readTextFile(join(hermesHome, "config.yaml"));
      assert.equal(/base_url: "([^"]+)"/.exec(config)?.[1], model.url);
      assert.match(config, new RegExp(`port: ${started.ports.endpoint}\\n`));

      const ran = await runCli(["agent", "harness", "kit", "--agent", "h", "--json"], home);
      const answer = JSON.parse(ran.stdout) as KitAnswer;
      assert.deepEqual(Object.fromEntries(answer.rows.map((r) => [r.check, r.result])), {
        "contract": "pass",
        "needs": "pass",
        "health": "pass",
        "endpoint proof": "pass",
        "caller proof": "pass",
        "squatter": "pass",
        "agent": "pass",
        "chat": "pass",
        "tools narrowing": "skipped",
      }, ran.stdout);
      assert.equal(ran.code, 0);

      // A config Hermes or the person edited is rewritten from Link's settings at the next start.
      await runJson(["agent", "stop", "--agent", "h"], home);
      const edited = config.replace('default: "fake-model"', 'default: "gpt-elsewhere"');
      assert.notEqual(edited, config);
      await Deno.writeTextFile(join(hermesHome, "config.yaml"), edited);
      await runJson(["agent", "start", "--agent", "h"], home);
      const again = await runCli(["agent", "chat", "send", "--agent", "h", "again"], home);
      assert.equal(again.code, 0, again.stderr);
      assert.equal(again.stdout.trim(), "Hello from Hermes.");
      assert.equal((model.requests.at(-1)!.body as { model: string }).model, "fake-model");
      assert.equal(await Deno.readTextFile(join(hermesHome, "config.yaml")), config);
    } finally {
      await runJson(["agent", "stop", "--agent", "h"], home);
    }
  },
);

sandboxedTest(
  "Hermes (a stand-in for hermes) calls a hosted model through Link's proxy, which adds the key: its .env holds a placeholder (SBX-16, SBX-17)",
  async () => {
    // The sandboxed start is made in this process so its proxy can be pointed at the fake, standing
    // in for the hosted provider: the name resolves from a table, the checked address is dialled to
    // the fake, and "TLS" hands the connection back. The fake refuses a request without the real key.
    await using model = await serveFakeModel({ key: HOSTED_KEY, defaultText: "Keyed by the proxy." });
    await using home = await tempHome();
    await standInInstall(home.paths.installDir("hermes"));
    const { harness, dialled, id, agent } = await startHostedHarness(home, model, {
      name: "h",
      harness: "hermes",
    });
    await using _ = harness;
    assert.equal(await askEndpoint(home, agent, "hi"), "Keyed by the proxy.");
    const request = await model.nextRequest();
    assert.deepEqual(
      [request.path, request.headers.authorization, (request.body as { model: string }).model],
      ["/v1/chat/completions", `Bearer ${HOSTED_KEY}`, "gpt-4.1-nano"],
    );
    assert.deepEqual(dialled, [[OPENAI_ADDRESS, 443]]);
    const hermesHome = join(home.paths.agentState(id), "harnesses", "hermes", ".hermes");
    for (const file of ["config.yaml", ".env"]) {
      assert.equal((await Deno.readTextFile(join(hermesHome, file))).includes(HOSTED_KEY), false, file);
    }
    assert.match(
      await Deno.readTextFile(join(hermesHome, ".env")),
      /^OPENAI_API_KEY=link-placeholder$/m,
    );
    // Its model is Link's proxy inside the sandbox, never the provider's own address.
    assert.match(
      await Deno.readTextFile(join(hermesHome, "config.yaml")),
      /base_url: "http:\/\/127\.0\.0\.1:3128\//,
    );
  },
);

Deno.test("an agent main on Hermes keeps Hermes's own port, 8642 (PRT-1)", async () => {
  await using home = await tempHome();
  const { ports } = await runJson<{ ports: { endpoint: number } }>(
    [
      "agent",
      "create",
      "main",
      "--harness",
      "hermes",
      "--model-url",
      "http://127.0.0.1:9/v1",
      "--model",
      "m",
    ],
    home,
  );
  assert.equal(ports.endpoint, 8642);
});
