import assert from "node:assert/strict";
import { runCli, runJson, tempHome } from "../../support/mod.ts";

type Status = { state: string; sandbox: string };

Deno.test("--no-sandbox turns the sandbox off and it persists across starts, in status too (GRT-6)", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "work", "--harness", "mini"], home);
  assert.equal((await runJson<Status>(["agent", "start", "--no-sandbox"], home)).sandbox, "off");
  await runJson(["agent", "stop"], home);
  const again = await runJson<Status>(["agent", "start"], home);
  assert.deepEqual([again.state, again.sandbox], ["running", "off"]);
  assert.match((await runCli(["agent", "status"], home)).stdout, /sandbox off/);
  await runJson(["agent", "stop"], home);
  assert.equal((await runJson<Status>(["agent", "start", "--sandbox"], home)).sandbox, "on");
  await runJson(["agent", "stop"], home);
  assert.equal((await runJson<Status>(["agent", "status"], home)).sandbox, "on");
});

Deno.test("--yes never turns the sandbox off (GRT-7)", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "work", "--harness", "mini"], home);
  assert.equal((await runJson<Status>(["agent", "start", "--yes"], home)).sandbox, "on");
});

Deno.test("--sandbox and --no-sandbox together are a usage error", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "work", "--harness", "mini"], home);
  const result = await runCli(["agent", "start", "--sandbox", "--no-sandbox"], home);
  assert.equal(result.code, 2);
});

Deno.test("unsandboxed = false in machine.toml refuses --no-sandbox and an agent already set off (GRT-9)", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "work", "--harness", "mini"], home);
  await runJson(["agent", "start", "--no-sandbox"], home);
  await runJson(["agent", "stop"], home);
  const machine = await Deno.readTextFile(home.paths.machineToml);
  await Deno.writeTextFile(home.paths.machineToml, `${machine}\nunsandboxed = false\n`, { mode: 0o600 });
  const refused = await runCli(["agent", "start", "--no-sandbox"], home);
  assert.equal(refused.code, 1);
  assert.match(
    refused.stderr,
    /Cannot start agent "work" without a sandbox \(--no-sandbox\): this machine refuses it/,
  );
  const plain = await runCli(["agent", "start"], home);
  assert.equal(plain.code, 1);
  assert.match(
    plain.stderr,
    /without a sandbox \(its setting\): this machine refuses it\n {2}hint: .*lnk agent start --sandbox/,
  );
  assert.equal((await runJson<Status>(["agent", "status"], home)).state, "stopped");
  assert.equal((await runJson<Status>(["agent", "start", "--sandbox"], home)).sandbox, "on");
});

Deno.test("machine.toml holding only the switch gets its ID and name added, the switch kept (GRT-11)", async () => {
  await using home = await tempHome();
  await Deno.mkdir(home.paths.lnk, { recursive: true, mode: 0o700 });
  await Deno.writeTextFile(home.paths.machineToml, "unsandboxed = false\n", { mode: 0o600 });
  await runJson(["agent", "create", "work", "--harness", "mini"], home);
  const text = await Deno.readTextFile(home.paths.machineToml);
  assert.match(text, /^id = "[0-9a-f]{16}"$/m);
  assert.match(text, /^name = ".+"$/m);
  assert.match(text, /^unsandboxed = false$/m);
  const refused = await runCli(["agent", "start", "--no-sandbox"], home);
  assert.equal(refused.code, 1);
});

Deno.test("a machine.toml another user could have written is not read (GRT-11, U-30)", async () => {
  await using home = await tempHome();
  await Deno.mkdir(home.paths.lnk, { recursive: true, mode: 0o700 });
  await Deno.writeTextFile(home.paths.machineToml, "unsandboxed = true\n");
  await Deno.chmod(home.paths.machineToml, 0o664);
  const result = await runCli(["agent", "create", "work"], home);
  assert.equal(result.code, 1);
  assert.match(
    result.stderr,
    /Cannot trust ".*machine.toml": ".*machine.toml" could be written by another user\n {2}hint: Make it yours alone/,
  );
  await Deno.chmod(home.paths.machineToml, 0o600);
  await Deno.chmod(home.paths.lnk, 0o777);
  const folder = await runCli(["agent", "create", "work"], home);
  assert.equal(folder.code, 1);
  assert.match(folder.stderr, /Cannot trust ".*machine.toml": ".*\.lnk" could be written by another user/);
});
