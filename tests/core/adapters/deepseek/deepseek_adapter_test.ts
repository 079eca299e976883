/**
 * DeepSeek Harness's adapter, asked as Link asks it (ADP-1, ADP-2, ADP-6, ADP-9, ADP-12, ADP-13),
 * with the stand-in install of tests/support/dsh.ts (the real dsh cannot be installed from npm,
 * NO_REAL_DSH says why) and npm itself for install's failure, against a registry on the loopback
 * that refuses. The agent on it in its sandbox is deepseek_test.ts.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { askAdapter, askContract, BUILT_INS } from "../../../../core/adapters/mod.ts";
import { NO_REAL_DSH, standInDshInstall } from "../../../support/dsh.ts";
import { runJson, tempHome } from "../../../support/mod.ts";

// deno-lint-ignore no-console -- the reason the real harness is not run must be seen.
console.log(`DeepSeek Harness adapter tests: ${NO_REAL_DSH}`);

const adapter = { harness: "deepseek", builtIn: BUILT_INS.find((b) => b.harness === "deepseek")! };
const AGENT = { id: "dsagent1", name: "d", harness: "deepseek", ports: { endpoint: 18810, block: 20000 } };
const MODEL = { baseUrl: "http://127.0.0.1:3128/v1", model: "fake-model" };

function envOf(home: string, more: Record<string, string> = {}): { get(name: string): string | undefined } {
  const vars: Record<string, string> = { HOME: home, PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ...more };
  return { get: (name) => vars[name] };
}

Deno.test("DeepSeek Harness's adapter answers contract v2, its needs with why, its stdio endpoint under the hub, its state and no connections of its own (ADP-6, ADP-12)", async () => {
  await using home = await tempHome();
  const install = join(home.path, ".lnk", "installs", "deepseek");
  const ask = { env: envOf(home.path), input: { agent: AGENT } };
  const contract = await askContract(adapter, ask);
  assert.equal(contract.version, 2);
  assert.deepEqual(contract.fields, ["proof", "agent"]);
  for (const command of ["needs", "internet-hosts", "configure", "install", "health", "endpoint", "state"]) {
    assert.ok(contract.commands?.includes(command), command);
  }
  const needs = await askAdapter(adapter, "needs", ask);
  assert.deepEqual(needs?.spec, { paths: { read: [install] } });
  assert.match(needs!.why.paths!, /read-only/);
  assert.equal(needs?.confined, true);
  assert.deepEqual(needs?.risks, []);
  const endpoint = await askAdapter(adapter, "endpoint", ask);
  const words = endpoint!.stdio!.command;
  assert.deepEqual(words.slice(words.indexOf("harness")), [
    "harness",
    "launch",
    "deepseek",
    "--install",
    install,
  ]);
  assert.ok(endpoint!.stdio!.env.PATH!.startsWith(join(install, "node_modules", ".bin")));
  assert.deepEqual(await askAdapter(adapter, "connections", ask), { connections: [] });
  assert.deepEqual((await askAdapter(adapter, "state", ask))?.paths, [".dsh", ".lnk"]);
});

Deno.test("DeepSeek Harness's internet-hosts is the registry the person's npm uses, read from npm's config (ADP-9)", async () => {
  await using home = await tempHome();
  await Deno.writeTextFile(join(home.path, ".npmrc"), "registry=http://packages.registry.test/\n");
  const answer = await askAdapter(adapter, "internet-hosts", { env: envOf(home.path) });
  assert.deepEqual(answer, { hosts: ["packages.registry.test"] });
});

Deno.test("configure writes dsh's settings for the model with a placeholder key, then nothing while they match; an edit is put back (ADP-1, ADP-2, ADP-13)", async () => {
  await using home = await tempHome();
  const install = await standInDshInstall(home.path, join(home.path, "install"));
  const harnessHome = join(home.path, "harness");
  await Deno.mkdir(harnessHome);
  const ask = { env: envOf(harnessHome), input: { agent: AGENT, install, model: MODEL } };
  const first = await askAdapter(adapter, "configure", ask);
  assert.equal(first?.changed, true);
  assert.deepEqual(first?.wrote, [".dsh/settings.yaml", ".dsh/.credentials.yaml", ".lnk/dsh-configured"]);
  const settingsFile = join(harnessHome, ".dsh", "settings.yaml");
  const settings = JSON.parse(await Deno.readTextFile(settingsFile));
  assert.deepEqual(settings["agent-default-model"], { provider: "lnk", model: "fake-model" });
  const route = settings["llm-pi-ai"].providers.lnk;
  assert.equal(route.baseURL, MODEL.baseUrl);
  assert.equal(route.api, "openai-completions");
  assert.equal(route.apiKeyEnv, "OPENAI_API_KEY");
  assert.deepEqual(route.models, [{ id: "fake-model" }]);
  // The key the config holds is the proxy's placeholder (SBX-17), never a key.
  assert.equal(
    await Deno.readTextFile(join(harnessHome, ".dsh", ".credentials.yaml")),
    "OPENAI_API_KEY: link-placeholder\n",
  );
  assert.match(await Deno.readTextFile(join(harnessHome, ".lnk", "dsh-configured")), /^[0-9a-f]{64}\n$/);

  const before = (await Deno.stat(settingsFile)).mtime?.getTime();
  assert.deepEqual(await askAdapter(adapter, "configure", ask), { changed: false, wrote: [] });
  assert.equal((await Deno.stat(settingsFile)).mtime?.getTime(), before);

  // The harness's own sections are kept; Link's route and default model are put back.
  settings["agent-default-model"] = { provider: "deepseek-official", model: "deepseek-v4-flash" };
  settings.theme = { mode: "dark" };
  await Deno.writeTextFile(settingsFile, JSON.stringify(settings));
  const repaired = await askAdapter(adapter, "configure", ask);
  assert.deepEqual(repaired?.wrote, [".dsh/settings.yaml", ".lnk/dsh-configured"]);
  const now = JSON.parse(await Deno.readTextFile(settingsFile));
  assert.deepEqual(now["agent-default-model"], { provider: "lnk", model: "fake-model" });
  assert.deepEqual(now.theme, { mode: "dark" });

  // Another model is another config.
  const moved = {
    ...ask,
    input: { ...ask.input, model: { baseUrl: "http://127.0.0.1:9/v1", model: "other" } },
  };
  assert.equal((await askAdapter(adapter, "configure", moved))?.changed, true);
  assert.equal(
    JSON.parse(await Deno.readTextFile(settingsFile))["llm-pi-ai"].providers.lnk.baseURL,
    "http://127.0.0.1:9/v1",
  );
});

Deno.test("DeepSeek Harness's configure without dsh installed, or without a model, is refused with a hint, writing nothing", async () => {
  await using home = await tempHome();
  const harnessHome = join(home.path, "harness");
  await Deno.mkdir(harnessHome);
  await assert.rejects(
    askAdapter(adapter, "configure", {
      env: envOf(harnessHome),
      input: { agent: AGENT, install: join(home.path, "none"), model: MODEL },
    }),
    (err: Error & { code?: string; hint?: string }) =>
      err.code === "HARNESS_MISSING" && /not installed/.test(err.message) &&
      /lnk harness adapter deepseek install/.test(err.hint ?? ""),
  );
  const install = await standInDshInstall(home.path, join(home.path, "install"));
  await assert.rejects(
    askAdapter(adapter, "configure", { env: envOf(harnessHome), input: { agent: AGENT, install } }),
    (err: Error & { code?: string; hint?: string }) =>
      err.code === "CONFIG_INVALID" && /no model/.test(err.message) && /baseUrl/.test(err.hint ?? ""),
  );
  assert.deepEqual([...Deno.readDirSync(harnessHome)], []);
});

Deno.test("DeepSeek Harness's install answers the release already in the install folder, changing nothing (stand-in install)", async () => {
  await using home = await tempHome();
  const install = await standInDshInstall(home.path, join(home.path, "install"));
  const answer = await askAdapter(adapter, "install", { env: envOf(home.path), input: { install } });
  assert.deepEqual(answer, { version: "0.1.5-rc.2", changed: false });
});

Deno.test("DeepSeek Harness's install from a registry that refuses fails with npm's word and a hint, installing nothing", async () => {
  await using home = await tempHome();
  const asked: string[] = [];
  await using registry = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    asked.push(new URL(req.url).pathname);
    return Response.json({ error: "refused by this registry" }, { status: 403 });
  });
  const install = join(home.path, "install");
  const env = envOf(home.path, { npm_config_registry: `http://127.0.0.1:${registry.addr.port}/` });
  await assert.rejects(
    askAdapter(adapter, "install", { env, input: { install } }),
    (err: Error & { code?: string; hint?: string }) =>
      err.code === "SERVICE_FAILED" &&
      /npm could not install node@24 @deepseek-ai\/dsh@0\.1\.5-rc\.2/.test(err.message) &&
      /E403: 403/.test(err.message) && /npm ping/.test(err.hint ?? ""),
  );
  assert.ok(asked.length > 0, "npm asked the registry on the loopback");
  await assert.rejects(Deno.stat(join(install, "node_modules", ".bin", "dsh")), Deno.errors.NotFound);
});

Deno.test("DeepSeek Harness's health says not installed, installed but not running, then serving while its launcher's mark is there; a mark the harness planted is not live", async () => {
  await using home = await tempHome();
  const ask = { env: envOf(home.path), input: { agent: AGENT } };
  const missing = await askAdapter(adapter, "health", ask);
  assert.equal(missing?.ok, false);
  assert.match(missing!.detail!, /not installed/);
  await standInDshInstall(home.path);
  const idle = await askAdapter(adapter, "health", ask);
  assert.equal(idle?.ok, false);
  assert.match(idle!.detail!, /not running/);
  const mark = join(home.path, ".lnk", "agents", AGENT.id, "harnesses", "deepseek", ".lnk", "dsh_live.json");
  await Deno.mkdir(join(mark, ".."), { recursive: true });
  await Deno.writeTextFile(mark, JSON.stringify({ since: "2026-01-01T00:00:00.000Z" }));
  const live = await askAdapter(adapter, "health", ask);
  assert.deepEqual(live, {
    ok: true,
    detail: "dsh 0.1.5-rc.2 serving ACP in the sandbox since 2026-01-01T00:00:00.000Z",
  });

  // attack: the harness can write its home, the mark among it: what it plants never reaches the
  // detail a terminal shows (an escape sequence, a line of its own), and garbage is not live.
  for (
    const planted of [
      JSON.stringify({ since: "\u001b]8;;http://evil.example\u0007click\u001b[2J" }),
      JSON.stringify({ since: "2026-01-01T00:00:00.000Z\nall clear" }),
      JSON.stringify({ since: "2026-01-01T00:00:00.000Z", more: "\u001b[31m" }),
      "{not json",
    ]
  ) {
    await Deno.writeTextFile(mark, planted);
    assert.deepEqual(await askAdapter(adapter, "health", ask), {
      ok: false,
      detail: "dsh 0.1.5-rc.2's live mark does not read",
    }, planted);
  }
});

Deno.test("an agent main on DeepSeek Harness keeps its port 18810, and its status names the harness (PRT-1)", async () => {
  await using home = await tempHome();
  const { ports } = await runJson<{ ports: { endpoint: number } }>(
    [
      "agent",
      "create",
      "main",
      "--harness",
      "deepseek",
      "--model-url",
      MODEL.baseUrl,
      "--model",
      MODEL.model,
    ],
    home,
  );
  assert.equal(ports.endpoint, 18810);
  const status = await runJson<{ harness: string }>(["agent", "status", "--agent", "main"], home);
  assert.equal(status.harness, "deepseek");
});
