import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli, runJson, tempHome } from "../../support/mod.ts";
import { demoAdapter, NEEDS } from "./_demo_adapter_support.ts";

const layer = (home: { path: string }) => join(home.path, ".lnk", "harnesses", "demo.toml");
const harnessOf = async (home: Parameters<typeof runJson>[1]) =>
  (await runJson<{ harness: string }>(["agent", "show", "--json"], home)).harness;

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test("lnk agent use to a wider harness lists its needs and asks once; no keeps the agent where it was and writes nothing (GRT-20, stand-in adapter lnk-demo)", async () => {
  await using home = await tempHome();
  home.env.set("NO_COLOR", "1");
  await demoAdapter(home, NEEDS);
  await runJson(["agent", "create"], home);
  const no = await runCli(["agent", "use", "demo"], home, { answers: ["n"] });
  assert.equal(no.code, 1);
  assert.match(
    no.stderr,
    /asks for:\n {2}--read \/opt\/demo-tool {2}\(the demo tool's program\)\n {2}--port 9000/,
  );
  assert.match(no.stderr, /stays on harness "link"/);
  assert.equal(await harnessOf(home), "link");
  assert.equal(await exists(layer(home)), false, "a refused switch changes nothing on disk");
  const yes = await runCli(["agent", "use", "demo"], home, { answers: ["y"] });
  assert.equal(yes.code, 0, yes.stderr);
  assert.match(yes.stdout, /Agent "main" now runs harness "demo" \(was "link"\)/);
  assert.equal(await harnessOf(home), "demo");
  assert.match(await Deno.readTextFile(layer(home)), /"--port 9000" = "allow"/);
  // Back to Link Harness, which needs nothing beyond: one line, no question.
  const back = await runCli(["agent", "use", "link"], home, { answers: [] });
  assert.equal(back.code, 0, back.stderr);
  assert.match(back.stderr, /Harness "link" needs nothing beyond what "demo" had\n/);
  assert.doesNotMatch(back.stderr, /\[y\/N\]/);
  assert.equal(await harnessOf(home), "link");
});

Deno.test("lnk agent use without a terminal is refused naming --yes; --yes switches; an unknown harness and acp without its command are refused and change nothing (GRT-19, GRT-20, CON-2)", async () => {
  await using home = await tempHome();
  await demoAdapter(home, NEEDS);
  await runJson(["agent", "create"], home);
  const bare = await runCli(["agent", "use", "demo"], home);
  assert.equal(bare.code, 1);
  assert.match(bare.stderr, /Cannot switch agent "main" on harness "demo": it needs .*--yes/s);
  assert.equal(await harnessOf(home), "link");
  const unknown = await runCli(["agent", "use", "nope"], home);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /there is no harness "nope"/);
  const acp = await runCli(["agent", "use", "acp"], home);
  assert.equal(acp.code, 2);
  assert.match(acp.stderr, /without its command/);
  assert.equal(await harnessOf(home), "link");
  const yes = await runCli(["agent", "use", "demo", "--yes"], home);
  assert.equal(yes.code, 0, yes.stderr);
  assert.equal(await harnessOf(home), "demo");
  const text = await Deno.readTextFile(layer(home));
  assert.match(text, /open-port = "allow"/);
  assert.doesNotMatch(text, /managed-browser/);
});

Deno.test("lnk agent use names the connections the new harness does not answer, which stay in the settings and answer again on switching back (ADP-6, CON-2, stand-in adapter lnk-demo without endpoint or connections)", async () => {
  await using home = await tempHome();
  await demoAdapter(home, NEEDS);
  const made = await runJson<{ id: string }>(["agent", "create"], home);
  const settings = join(home.path, ".lnk", "agents", made.id, "settings.toml");
  // Two connections as their connect made them; the stand-in says nothing of `connections`: Telegram alone.
  await Deno.writeTextFile(
    settings,
    `${await Deno.readTextFile(settings)}\n[bots.telegram]\nchat = "1"\n\n[bots.slack]\nchannel = "2"\n`,
  );
  const switched = await runCli(["agent", "use", "demo", "--yes"], home);
  assert.equal(switched.code, 0, switched.stderr);
  assert.match(
    switched.stderr,
    /Connection slack stops answering on harness "demo"; it stays in the settings/,
  );
  assert.doesNotMatch(switched.stderr, /Connection telegram/);
  const text = await Deno.readTextFile(settings);
  assert.match(text, /\[bots\.slack\]/);
  const back = await runCli(["agent", "use", "link"], home);
  assert.equal(back.code, 0, back.stderr);
  assert.doesNotMatch(back.stderr, /stops answering/, "Link Harness answers every connection");
});

Deno.test("lnk agent use to a harness whose adapter answers garbage fails, keeps the old harness and writes nothing (GRT-20, stand-in adapter lnk-junk)", async () => {
  await using home = await tempHome();
  const bin = join(home.path, "bin");
  await Deno.mkdir(bin, { recursive: true });
  await Deno.writeTextFile(
    join(bin, "lnk-junk"),
    `#!/bin/sh\nread line\ncase "$1" in contract) echo '{"version":2,"fields":[]}';; needs) echo 'not json';; *) echo '{}';; esac\n`,
    { mode: 0o755 },
  );
  home.env.set("PATH", `${bin}:${home.env.get("PATH")}`);
  await runJson(["agent", "create"], home);
  const result = await runCli(["agent", "use", "junk", "--yes"], home);
  assert.equal(result.code, 1);
  assert.match(result.stderr, /junk/);
  assert.equal(await harnessOf(home), "link");
  assert.equal(await exists(join(home.path, ".lnk", "harnesses", "junk.toml")), false);
});

Deno.test("lnk agent use restarts a running agent on the new harness (GRT-20)", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "work", "--harness", "mini"], home);
  await runJson(["agent", "start"], home);
  try {
    const switched = await runJson<{ from: string; to: string; restarted: boolean }>(
      ["agent", "use", "link", "--json"],
      home,
    );
    assert.deepEqual([switched.from, switched.to, switched.restarted], ["mini", "link", true]);
    const status = await runJson<{ harness: string; state: string }>(["agent", "status", "--json"], home);
    assert.deepEqual([status.harness, status.state], ["link", "running"]);
  } finally {
    await runCli(["agent", "stop"], home);
  }
});

Deno.test("lnk agent use openclaw asks only for its optional risk, Link's own adapter declaring its needs: a yes in a terminal turns it on, no terminal or --yes leave it off and ask again later (GRT-20, GRT-22)", async () => {
  await using home = await tempHome();
  home.env.set("NO_COLOR", "1");
  await runJson(["agent", "create"], home);
  const openclaw = join(home.path, ".lnk", "harnesses", "openclaw.toml");
  // No terminal: the switch goes through, the browser off and its question left for a terminal.
  const bare = await runCli(["agent", "use", "openclaw"], home);
  assert.equal(bare.code, 0, bare.stderr);
  assert.equal(await harnessOf(home), "openclaw");
  assert.equal(await exists(openclaw), false);
  await runJson(["agent", "use", "link", "--yes"], home);
  const yes = await runCli(["agent", "use", "openclaw", "--yes"], home);
  assert.equal(yes.code, 0, yes.stderr);
  assert.equal(await exists(openclaw), false, "--yes leaves an optional risk off, unanswered");
  await runJson(["agent", "use", "link", "--yes"], home);
  const asked = await runCli(["agent", "use", "openclaw"], home, { answers: ["y"] });
  assert.equal(asked.code, 0, asked.stderr);
  assert.match(asked.stderr, /managed-browser/);
  assert.doesNotMatch(asked.stderr, /--read /, "its install folder is Link's own need, not asked");
  assert.match(await Deno.readTextFile(openclaw), /managed-browser = "allow"/);
});
