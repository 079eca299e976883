/**
 * The setup steps at `lnk agent start`, with a stand-in adapter program `lnk-<harness>` on the
 * test's PATH (a shell script: see _support.ts): install once per adapter, configure only when the
 * `.lnk/configured` hash changed (ADP-1, ADP-2), link when listed, each in a real sandbox.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { serveFakeModel } from "../../../fakes/fake_model.ts";
import { runCli, runJson, type TempHome } from "../../../support/mod.ts";
import { sandboxedTest } from "../../../support/sandboxed_agent.ts";
import { createAgent, homeWithAdapter, runs, writeAdapter } from "./_support.ts";

const harnessHome = (home: TempHome, id: string, harness: string) =>
  join(home.paths.agentState(id), "harnesses", harness);

async function startStop(home: TempHome): Promise<void> {
  await runJson(["agent", "start", "--agent", "a"], home);
  await runJson(["agent", "stop", "--agent", "a"], home);
}

async function refused(home: TempHome, args: string[]): Promise<{ code: string; message: string }> {
  const result = await runCli([...args, "--json"], home);
  assert.notEqual(result.code, 0, args.join(" "));
  return JSON.parse(result.stdout.trim().split("\n").at(-1)!).error;
}

sandboxedTest(
  "stand-in adapter: install runs once into the install folder, configure writes its config, link runs, and the harness answers (SBX-13, ADP-15)",
  async () => {
    await using model = await serveFakeModel();
    await using home = await homeWithAdapter("setupper");
    const id = await createAgent(home, "setupper", model.url);
    await runJson(["agent", "start", "--agent", "a"], home);
    assert.equal((await runCli(["agent", "chat", "send", "--agent", "a", "hi"], home)).stdout, "echo: hi\n");
    await runJson(["agent", "stop", "--agent", "a"], home);
    const install = home.paths.installDir("setupper");
    const hh = harnessHome(home, id, "setupper");
    assert.equal(await runs(join(install, "installs.log")), 1);
    assert.equal(await Deno.readTextFile(join(install, "bin", "tool")), "#!/bin/sh\necho tool\n");
    const marker = JSON.parse(await Deno.readTextFile(`${install}.installed`));
    assert.equal(marker.release, "1.2.3");
    assert.equal(await Deno.readTextFile(join(hh, "conf", "config.json")), '{"model":"from-link"}\n');
    // configure read the install folder's program, and could not write there.
    assert.deepEqual((await Deno.readTextFile(join(hh, "configures.log"))).split("\n"), ["run", "tool", ""]);
    assert.equal(await runs(join(hh, "links.log")), 1);
    const configured = JSON.parse(await Deno.readTextFile(join(hh, ".lnk", "configured")));
    assert.deepEqual(configured.wrote, ["conf/config.json"]);
  },
);

sandboxedTest(
  "configure reruns only when its hash changed: not for a spec-only change, yes for an edited config, a rebuilt adapter of the same version, or proxied turned off (ADP-1, ADP-2, ADP-13)",
  async () => {
    await using model = await serveFakeModel();
    await using home = await homeWithAdapter("hasher");
    const id = await createAgent(home, "hasher", model.url);
    const hh = harnessHome(home, id, "hasher");
    const install = home.paths.installDir("hasher");
    const counts = async (): Promise<[number, number]> => [
      await runs(join(install, "installs.log")),
      await runs(join(hh, "configures.log")),
    ];
    // The ports configure was last handed: a start that had to move the agent's ports (another
    // program of this machine held one) configures it again, as they are in the hash.
    const portsSeen = async () => JSON.parse(await Deno.readTextFile(join(hh, "input.json"))).agent.ports;
    let extra = 0;
    const started = async (changed = false) => {
      const [before, ran] = [await portsSeen(), (await counts())[1]];
      await startStop(home);
      const [after, now] = [await portsSeen(), (await counts())[1]];
      if (!changed && now > ran && JSON.stringify(after) !== JSON.stringify(before)) extra++;
    };
    await startStop(home);
    assert.deepEqual(await counts(), [1, 1]);

    // A start with nothing changed: neither runs again.
    await started();
    assert.deepEqual(await counts(), [1, 1 + extra]);

    // A spec-only change (a host granted) does not rerun configure.
    await runJson(["agent", "allow", "--agent", "a", "--host", "example.com"], home);
    await started();
    assert.deepEqual(await counts(), [1, 1 + extra]);

    // The harness edits its own config: configure writes Link's settings again (ADP-2).
    await Deno.writeTextFile(join(hh, "conf", "config.json"), '{"model":"edited"}\n');
    await started(true);
    assert.deepEqual(await counts(), [1, 2 + extra]);
    assert.equal(await Deno.readTextFile(join(hh, "conf", "config.json")), '{"model":"from-link"}\n');

    // A rebuilt adapter answering the same version: install and configure both run again.
    await writeAdapter(home, "hasher", {
      install: `echo run >> "$HOME/installs.log"; mkdir -p "$HOME/bin"; ` +
        `printf '#!/bin/sh\\necho tool\\n' > "$HOME/bin/tool"; chmod +x "$HOME/bin/tool"; ` +
        `echo '{"version":"1.2.3","changed":true}'; : rebuilt`,
    });
    await started(true);
    assert.deepEqual(await counts(), [2, 3 + extra]);

    // The harness's network as it is (host mode): configure runs again, handed proxied=false (ADP-13).
    assert.equal(JSON.parse(await Deno.readTextFile(join(hh, "input.json"))).proxied, true);
    await runJson(["agent", "allow", "--agent", "a", "--network-mode", "host"], home);
    await started(true);
    assert.deepEqual(await counts(), [2, 4 + extra]);
    const input = JSON.parse(await Deno.readTextFile(join(hh, "input.json")));
    assert.deepEqual([input.proxied, input.install], [false, install]);
  },
);

sandboxedTest(
  "a failed install fails the start naming the adapter, the step and its stderr's last line, leaves no marker, and the next start installs again",
  async () => {
    await using model = await serveFakeModel();
    await using home = await homeWithAdapter("breaks", {
      install: `echo run >> "$HOME/installs.log"; echo "downloading" >&2; echo "no space left" >&2; exit 3`,
    });
    await createAgent(home, "breaks", model.url);
    const error = await refused(home, ["agent", "start", "--agent", "a"]);
    assert.equal(error.code, "SERVICE_FAILED");
    assert.match(error.message, /"breaks" failed `install` \(exit 3\): no space left/);
    const status = await runJson<{ state: string }>(["agent", "status", "--agent", "a"], home);
    assert.equal(status.state, "stopped");
    const install = home.paths.installDir("breaks");
    await assert.rejects(Deno.stat(`${install}.installed`), Deno.errors.NotFound);
    // Fixed, the next start installs again and the agent runs.
    await writeAdapter(home, "breaks");
    await startStop(home);
    assert.equal(await runs(join(install, "installs.log")), 2);
    assert.equal(JSON.parse(await Deno.readTextFile(`${install}.installed`)).release, "1.2.3");
  },
);

sandboxedTest(
  "a configure printing garbage, or a link exiting non-zero, fails the start naming the step; the agent stays stopped",
  async () => {
    await using model = await serveFakeModel();
    const cases: [string, Record<string, string>, RegExp][] = [
      [
        "garbled",
        { configure: `echo "oops" >&2; echo 'hello there'` },
        /"garbled" answered `configure` with "hello there", not JSON \(its stderr: oops\)/,
      ],
      [
        "linkfail",
        { link: `echo "cannot reach the hub" >&2; exit 1` },
        /"linkfail" failed `link` \(exit 1\): cannot reach the hub/,
      ],
      [
        "wrongwrote",
        { configure: `echo '{"changed":true,"wrote":["../escape"]}'` },
        /"wrongwrote" answered `configure` wrongly: wrote\.0/,
      ],
    ];
    for (const [harness, steps, message] of cases) {
      await using home = await homeWithAdapter(harness, steps);
      await createAgent(home, harness, model.url);
      const error = await refused(home, ["agent", "start", "--agent", "a"]);
      assert.equal(error.code, "SERVICE_FAILED", harness);
      assert.match(error.message, message, harness);
      const status = await runJson<{ state: string }>(["agent", "status", "--agent", "a"], home);
      assert.equal(status.state, "stopped", harness);
    }
  },
);

sandboxedTest(
  "two agents on one outside harness share its one install: it runs once, and each one's configure reads it (as root, each its own uid)",
  async () => {
    await using model = await serveFakeModel();
    await using home = await homeWithAdapter("shared");
    const a = await createAgent(home, "shared", model.url);
    const { id: b } = await runJson<{ id: string }>(
      ["agent", "create", "b", "--harness", "shared", "--model-url", model.url],
      home,
    );
    await runJson(["agent", "start", "--agent", "a"], home);
    await runJson(["agent", "start", "--agent", "b"], home);
    await runJson(["agent", "stop", "--agent", "a"], home);
    await runJson(["agent", "stop", "--agent", "b"], home);
    assert.equal(await runs(join(home.paths.installDir("shared"), "installs.log")), 1);
    for (const id of [a, b]) {
      const log = await Deno.readTextFile(join(harnessHome(home, id, "shared"), "configures.log"));
      assert.deepEqual(log.split("\n"), ["run", "tool", ""], id);
    }
  },
);
