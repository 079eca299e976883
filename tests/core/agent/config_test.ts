import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli, runJson, tempHome } from "../../support/mod.ts";

async function withConfig(file: "spec.toml" | "sandbox.toml", text: string) {
  const home = await tempHome();
  await runJson(["agent", "create", "work"], home);
  const path = join(home.path, "Link", "Agents", "work", "Config", file);
  await Deno.writeTextFile(path, text);
  return { home, path };
}

Deno.test("a TOML syntax error in spec.toml names the file and line, and the start runs nothing", async () => {
  const { home, path } = await withConfig("spec.toml", '[run]\nidle_after = "5m"\n\n[turns\nrenew = "10s"\n');
  await using _ = home;
  const result = await runCli(["agent", "start"], home);
  assert.equal(result.code, 1);
  assert.match(result.stderr, new RegExp(`error: Cannot read "${path}": line 4: `));
  assert.match(result.stderr, /hint: Fix the TOML syntax on line 4/);
  assert.equal((await runJson<{ state: string }>(["agent", "status"], home)).state, "stopped");
});

Deno.test("an unknown key in spec.toml is refused, naming file, line and key, never ignored", async () => {
  const { home, path } = await withConfig("spec.toml", '[run]\nidle_after = "5m"\nidle_aftr = "1m"\n');
  await using _ = home;
  const result = await runCli(["agent", "start"], home);
  assert.equal(result.code, 1);
  assert.match(result.stderr, new RegExp(`Cannot load "${path}": line 3: key "run.idle_aftr" is not known`));
  assert.match(result.stderr, new RegExp(`hint: Fix these keys in the agent's spec:\n {4}${path}:line 3`));
});

Deno.test("a wrong value in spec.toml names its line and key", async () => {
  const { home, path } = await withConfig("spec.toml", '# mine\n[turns]\nrenew = "10s"\nlapse = "soon"\n');
  await using _ = home;
  const result = await runJson<{ error: { code: string; message: string } }>(["agent", "show"], home).catch((
    e,
  ) => e);
  assert.ok(result instanceof Error);
  const shown = await runCli(["agent", "show", "--json"], home);
  const error = JSON.parse(shown.stdout).error;
  assert.equal(error.code, "CONFIG_INVALID");
  assert.match(
    error.message,
    new RegExp(`Cannot load "${path}": line 4: key "turns.lapse": must be a duration`),
  );
});

Deno.test("an unknown section in sandbox.toml is refused, naming file and line", async () => {
  const { home, path } = await withConfig(
    "sandbox.toml",
    '[internet]\nhosts = ["*"]\n\n[webcam]\nallow = true\n',
  );
  await using _ = home;
  const result = await runCli(["agent", "start"], home);
  assert.equal(result.code, 1);
  assert.match(result.stderr, new RegExp(`Cannot load "${path}": line 4: key "webcam" is not known`));
});

Deno.test("a bad grant value in sandbox.toml names its line and key", async () => {
  const { home, path } = await withConfig("sandbox.toml", '[files]\n"." = "write"\nwork = "rw"\n');
  await using _ = home;
  const result = await runCli(["agent", "show", "--permissions"], home);
  assert.equal(result.code, 1);
  assert.match(result.stderr, new RegExp(`Cannot load "${path}": line 3: key "files.work"`));
});

Deno.test("two settings changes at once lose neither (writes are atomic and locked)", async () => {
  await using home = await tempHome();
  const { id } = await runJson<{ id: string }>(["agent", "create", "work"], home);
  const { updateSettings, loadSettings } = await import("../../../core/agent/mod.ts");
  await Promise.all([
    updateSettings(home.paths, id, (s) => ({ ...s, model: "one" })),
    updateSettings(home.paths, id, (s) => ({ ...s, bots: { link: { on: true } } })),
  ]);
  const settings = await loadSettings(home.paths, id);
  assert.equal(settings.model, "one");
  assert.deepEqual(settings.bots, { link: { on: true } });
  const leftovers = (await Array.fromAsync(Deno.readDir(home.paths.agentState(id)))).filter((e) =>
    e.name.endsWith(".tmp")
  );
  assert.deepEqual(leftovers, []);
});
