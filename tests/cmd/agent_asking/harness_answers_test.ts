import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli, runJson, tempHome } from "../../support/mod.ts";
import { demoAdapter, NEEDS } from "./_demo_adapter_support.ts";

const layer = (home: { path: string }) => join(home.path, ".lnk", "harnesses", "demo.toml");

Deno.test("lnk agent harness allow and deny change the harness's layer for declared needs only, and reset makes the next start ask again (GRT-3, GRT-19, CLI-5, stand-in adapter lnk-demo)", async () => {
  await using home = await tempHome();
  await demoAdapter(home, NEEDS);
  await runJson(["agent", "create", "--harness", "demo"], home);
  const allowed = await runCli(["agent", "harness", "allow", "--port", "9000", "--risk", "open-port"], home);
  assert.equal(allowed.code, 0, allowed.stderr);
  assert.match(allowed.stdout, /Allowed for harness "demo": --port 9000 --risk open-port/);
  let text = await Deno.readTextFile(layer(home));
  assert.match(text, /\[localhost\]\nports = \[ 9000 \]/);
  assert.match(text, /open-port = "allow"/);
  // A flag the harness never declared is refused, saying so, and nothing changes.
  const strange = await runCli(["agent", "harness", "allow", "--read", "/etc"], home);
  assert.equal(strange.code, 2);
  assert.match(strange.stderr, /Cannot allow --read \/etc for harness "demo": its adapter never declared it/);
  assert.match(
    strange.stderr,
    /It declares: --read \/opt\/demo-tool --port 9000 --risk open-port --risk managed-browser/,
  );
  assert.equal(await Deno.readTextFile(layer(home)), text);
  const denied = await runJson(
    ["agent", "harness", "deny", "--harness", "demo", "--port", "9000", "--json"],
    home,
  );
  assert.deepEqual(denied.changed, ["--port 9000"]);
  text = await Deno.readTextFile(layer(home));
  assert.doesNotMatch(text, /\[localhost\]/);
  assert.match(text, /"--port 9000" = "deny"/);
  // Now the start asks only the need left unanswered.
  const start = await runCli(["agent", "start"], home, { answers: ["y"] });
  assert.match(
    start.stderr,
    /asks for:\n {2}--read \/opt\/demo-tool {2}\(the demo tool's program\)\n {2}risk managed-browser/,
  );
  const reset = await runCli(["agent", "harness", "reset"], home);
  assert.match(reset.stdout, /Forgot 4 answer\(s\) for harness "demo": its next start asks again/);
  text = await Deno.readTextFile(layer(home));
  assert.doesNotMatch(text, /answers|paths|localhost/);
  const after = await runCli(["agent", "start"], home);
  assert.match(after.stderr, /--yes/, "with the answers gone, a start without a terminal is refused again");
});
