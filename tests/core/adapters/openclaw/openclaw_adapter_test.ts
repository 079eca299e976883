/**
 * OpenClaw's adapter, asked as Link asks it (ADP-1..3, ADP-6, ADP-9, ADP-12, ADP-13), with a
 * stand-in for the `openclaw` program (a shell script recording each `doctor --fix` and exiting as
 * told) in an install folder laid out as npm leaves it: these run everywhere, quickly; the real
 * OpenClaw is openclaw_test.ts.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { askAdapter, askContract, BUILT_INS } from "../../../../core/adapters/mod.ts";
import { tempHome } from "../../../support/mod.ts";

const adapter = { harness: "openclaw", builtIn: BUILT_INS.find((b) => b.harness === "openclaw")! };
const AGENT = { id: "ocagent1", name: "main", harness: "openclaw", ports: { endpoint: 18789, block: 20000 } };
const MODEL = { baseUrl: "http://127.0.0.1:3128/v1", model: "fake-model" };

/** An install folder as npm leaves it, with a stand-in `openclaw` whose doctor exits as `doctor_exit` says. */
async function standInInstall(dir: string): Promise<string> {
  const install = join(dir, "install");
  const bin = join(install, "node_modules", ".bin");
  await Deno.mkdir(join(install, "node_modules", "openclaw"), { recursive: true });
  await Deno.mkdir(bin, { recursive: true });
  await Deno.writeTextFile(
    join(install, "node_modules", "openclaw", "package.json"),
    JSON.stringify({ name: "openclaw", version: "2026.9.6" }),
  );
  await Deno.writeTextFile(join(bin, "node"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  await Deno.writeTextFile(
    join(bin, "openclaw"),
    '#!/bin/sh\necho "$*" >> "$HOME/doctor_calls"\nexit "$(cat "$HOME/doctor_exit" 2>/dev/null || echo 0)"\n',
    { mode: 0o755 },
  );
  return install;
}

function envOf(home: string, more: Record<string, string> = {}): { get(name: string): string | undefined } {
  const vars: Record<string, string> = { HOME: home, PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ...more };
  return { get: (name) => vars[name] };
}

Deno.test("OpenClaw's adapter answers contract v2, its needs with why and an optional risk, its endpoint under the hub, its state and no connections of its own (ADP-6, ADP-12)", async () => {
  await using home = await tempHome();
  const install = join(home.path, ".lnk", "installs", "openclaw");
  const ask = { env: envOf(home.path), input: { agent: AGENT } };
  const contract = await askContract(adapter, ask);
  assert.equal(contract.version, 2);
  for (const command of ["needs", "internet-hosts", "configure", "install", "health", "endpoint", "state"]) {
    assert.ok(contract.commands?.includes(command), command);
  }
  const needs = await askAdapter(adapter, "needs", ask);
  assert.deepEqual(needs?.spec, { paths: { read: [install] } });
  assert.match(needs!.why.paths!, /read-only/);
  assert.deepEqual(needs?.risks.map((r) => [r.name, r.optional]), [["managed-browser", true]]);
  const endpoint = await askAdapter(adapter, "endpoint", ask);
  const words = endpoint!.stdio!.command;
  assert.deepEqual(words.slice(words.indexOf("harness")), [
    "harness",
    "launch",
    "openclaw",
    "--install",
    install,
    "--port",
    "18789",
  ]);
  assert.ok(endpoint!.stdio!.env.PATH!.startsWith(join(install, "node_modules", ".bin")));
  assert.deepEqual(await askAdapter(adapter, "connections", ask), { connections: [] });
  assert.deepEqual((await askAdapter(adapter, "state", ask))?.paths, [".openclaw", ".lnk"]);
});

Deno.test("internet-hosts is the registry the person's npm uses, read from npm's config (ADP-9)", async () => {
  await using home = await tempHome();
  await Deno.writeTextFile(join(home.path, ".npmrc"), "registry=http://packages.registry.test/\n");
  const answer = await askAdapter(adapter, "internet-hosts", { env: envOf(home.path) });
  assert.deepEqual(answer, { hosts: ["packages.registry.test"] });
});

Deno.test("configure writes OpenClaw's config for the model and port with the key the hub hands (the proxy's placeholder), then nothing while it matches; an edit is rewritten (ADP-1, ADP-2, ADP-13, SBX-17)", async () => {
  await using home = await tempHome();
  const install = await standInInstall(home.path);
  const harnessHome = join(home.path, "harness");
  await Deno.mkdir(harnessHome);
  const env = envOf(harnessHome, { OPENAI_API_KEY: "link-placeholder" });
  const ask = { env, input: { agent: AGENT, install, model: MODEL } };
  const first = await askAdapter(adapter, "configure", ask);
  assert.equal(first?.changed, true);
  const config = join(harnessHome, ".openclaw", "openclaw.json");
  const written = JSON.parse(await Deno.readTextFile(config));
  assert.deepEqual(written.gateway.port, 18789);
  assert.equal(written.gateway.bind, "loopback");
  assert.equal(
    written.gateway.auth.token,
    (await Deno.readTextFile(join(harnessHome, ".lnk", "gateway_token"))).trim(),
  );
  assert.equal(written.models.providers.lnk.baseUrl, MODEL.baseUrl);
  // The placeholder the proxy replaces with the real key on its way to a hosted provider.
  assert.equal(written.models.providers.lnk.apiKey, "link-placeholder");
  assert.equal(written.agents.defaults.model.primary, "lnk/fake-model");
  assert.equal(written.browser.enabled, false);
  assert.match(await Deno.readTextFile(join(harnessHome, ".lnk", "openclaw-configured")), /^[0-9a-f]{64}\n$/);

  const before = (await Deno.stat(config)).mtime?.getTime();
  const again = await askAdapter(adapter, "configure", ask);
  assert.deepEqual(again, { changed: false, wrote: [] });
  assert.equal((await Deno.stat(config)).mtime?.getTime(), before);

  written.agents.defaults.model.primary = "openai/elsewhere";
  await Deno.writeTextFile(config, JSON.stringify(written));
  const repaired = await askAdapter(adapter, "configure", ask);
  assert.ok(repaired!.wrote.includes(".openclaw/openclaw.json"));
  assert.equal(JSON.parse(await Deno.readTextFile(config)).agents.defaults.model.primary, "lnk/fake-model");

  // The managed browser, allowed, is on: the risks allowed reach configure.
  await askAdapter(adapter, "configure", { ...ask, input: { ...ask.input, allowed: ["managed-browser"] } });
  assert.equal(JSON.parse(await Deno.readTextFile(config)).browser.enabled, true);

  // An agent set to hold its key (`lnk agent secret hold`) is handed the key itself: written again.
  const held = await askAdapter(adapter, "configure", {
    env: envOf(harnessHome, { OPENAI_API_KEY: "sk-held-by-the-harness" }),
    input: ask.input,
  });
  assert.equal(held?.changed, true);
  assert.equal(
    JSON.parse(await Deno.readTextFile(config)).models.providers.lnk.apiKey,
    "sk-held-by-the-harness",
  );
});

Deno.test("doctor --fix runs once per install of a release, and again at the next configure when it failed (ADP-3, stand-in openclaw)", async () => {
  await using home = await tempHome();
  const install = await standInInstall(home.path);
  const harnessHome = join(home.path, "harness");
  await Deno.mkdir(harnessHome);
  const ask = { env: envOf(harnessHome), input: { agent: AGENT, install, model: MODEL } };
  const calls = async () =>
    (await Deno.readTextFile(join(harnessHome, "doctor_calls")).catch(() => "")).split("\n").filter(Boolean);
  await Deno.writeTextFile(join(harnessHome, "doctor_exit"), "1");
  await askAdapter(adapter, "configure", ask);
  assert.deepEqual(await calls(), ["doctor --fix --non-interactive"]);
  await assert.rejects(Deno.stat(join(harnessHome, ".lnk", "doctor")), Deno.errors.NotFound);
  await Deno.writeTextFile(join(harnessHome, "doctor_exit"), "0");
  for (let i = 0; i < 3; i++) await askAdapter(adapter, "configure", ask);
  assert.equal((await calls()).length, 2);
  assert.equal((await Deno.readTextFile(join(harnessHome, ".lnk", "doctor"))).trim(), "2026.9.6");
});

Deno.test("configure without OpenClaw installed, or without a model, is refused with a hint, writing nothing", async () => {
  await using home = await tempHome();
  const harnessHome = join(home.path, "harness");
  await Deno.mkdir(harnessHome);
  const missing = join(home.path, "none");
  await assert.rejects(
    askAdapter(adapter, "configure", {
      env: envOf(harnessHome),
      input: { agent: AGENT, install: missing, model: MODEL },
    }),
    (err: Error & { hint?: string }) =>
      /not installed/.test(err.message) && /Start the agent again/.test(err.hint ?? ""),
  );
  const install = await standInInstall(home.path);
  await assert.rejects(
    askAdapter(adapter, "configure", { env: envOf(harnessHome), input: { agent: AGENT, install } }),
    (err: Error & { hint?: string }) => /no model/.test(err.message) && /baseUrl/.test(err.hint ?? ""),
  );
  assert.deepEqual([...Deno.readDirSync(harnessHome)], []);
});

Deno.test("install answers the release already in the install folder, changing nothing (stand-in install)", async () => {
  await using home = await tempHome();
  const install = await standInInstall(home.path);
  const answer = await askAdapter(adapter, "install", { env: envOf(home.path), input: { install } });
  assert.deepEqual(answer, { version: "2026.9.6", changed: false });
});

Deno.test("attack: a live mark the harness planted in its home is never read as OpenClaw's gateway live, nor shown: an escape sequence, a port that is not one, garbage", async () => {
  await using home = await tempHome();
  const install = await standInInstall(home.path);
  // The agent's gateway port on this machine answers nothing: only the mark could say it is live.
  const agent = { ...AGENT, ports: { endpoint: freePort(), block: 20000 } };
  const ask = { env: envOf(home.path), input: { agent, install } };
  const mark = join(
    home.path,
    ".lnk",
    "agents",
    agent.id,
    "harnesses",
    "openclaw",
    ".lnk",
    "gateway_live.json",
  );
  await Deno.mkdir(join(mark, ".."), { recursive: true });
  await Deno.writeTextFile(
    mark,
    JSON.stringify({ port: agent.ports.endpoint, since: "2026-01-01T00:00:00.000Z" }),
  );
  assert.deepEqual(await askAdapter(adapter, "health", ask), {
    ok: true,
    detail: `gateway live in the sandbox on port ${agent.ports.endpoint} since 2026-01-01T00:00:00.000Z`,
  });
  for (
    const planted of [
      JSON.stringify({ port: "\u001b[2J", since: "2026-01-01T00:00:00.000Z" }),
      JSON.stringify({ port: 18789, since: "\u001b]8;;http://evil.example\u0007ok" }),
      "[]",
      "{not json",
    ]
  ) {
    await Deno.writeTextFile(mark, planted);
    assert.deepEqual(
      await askAdapter(adapter, "health", ask),
      { ok: false, detail: "OpenClaw's live mark does not read" },
      planted,
    );
  }
});

/** A loopback port nothing listens on: taken, then let go. */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}
