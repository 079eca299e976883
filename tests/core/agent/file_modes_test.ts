/**
 * An agent's files are its user's alone, whatever the umask Link is started with and whatever the
 * home's mode (issue 9, item 11): tried by another uid reading every path, and by the modes.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { layoutOf, loadSettings } from "../../../core/agent/mod.ts";
import { serveFakeModel } from "../../fakes/fake_model.ts";
import { runCli, runJson, runLnk, tempHome } from "../../support/mod.ts";
import { otherUsersUnavailable } from "../../support/other_user.ts";
import { NO_BWRAP } from "../../support/sandbox.ts";
import { openModes, pathsUnder, readByOtherUser } from "./_support.ts";

const OTHER_USERS = await otherUsersUnavailable();
const WHY_NOT = OTHER_USERS ?? NO_BWRAP;
const NOBODY = 65534;

function asOtherUser(name: string, fn: () => Promise<void>): void {
  Deno.test({ name: name + (WHY_NOT ? ` [ignored: ${WHY_NOT}]` : ""), ignore: WHY_NOT !== undefined, fn });
}

asOtherUser(
  "attack: under umask 000 in a 0755 home, another user reads none of an agent's files after create, start and a chat, and the agent starts",
  async () => {
    await using model = await serveFakeModel({ defaultText: "Hello back." });
    await using home = await tempHome();
    await Deno.chmod(home.path, 0o755);
    const create = ["agent", "create", "--model-url", model.url, "--model", "fake-model", "--json"];
    const created = await runLnk(create, home, { umask: 0o000 });
    assert.equal(created.code, 0, created.stderr);
    const started = await runLnk(["agent", "start", "--json"], home, { umask: 0o000 });
    assert.equal(started.code, 0, started.stderr);
    assert.equal(JSON.parse(started.stdout).state, "running");
    const sent = await runLnk(["agent", "chat", "send", "hi"], home, { umask: 0o000 });
    assert.deepEqual(sent, { code: 0, stdout: "Hello back.\n", stderr: "" });
    const { id } = JSON.parse(created.stdout) as { id: string };
    const layout = layoutOf(home.paths, await loadSettings(home.paths, id));
    const paths = await pathsUnder(home.path);
    // What was tried: the conversation, the instructions, the settings, the key, the logs, and all else.
    for (
      const want of [join(layout.agent, "chats", "link+main", "events", "1.json"), home.paths.keyFile(id)]
    ) {
      assert.ok(paths.includes(want), `${want} is there to be tried`);
    }
    assert.deepEqual(await readByOtherUser(NOBODY, paths), []);
    assert.deepEqual(await openModes(paths), []);
    await runLnk(["agent", "stop"], home);
  },
);

asOtherUser(
  "attack: an agent made before with loose modes (folders 0755, files 0644) is made its user's alone at its next start",
  async () => {
    await using home = await tempHome();
    await Deno.chmod(home.path, 0o755);
    const { id } = await runJson<{ id: string }>(["agent", "create", "--harness", "mini"], home);
    const paths = await pathsUnder(home.path);
    for (const path of paths) await Deno.chmod(path, (await Deno.stat(path)).isDirectory ? 0o755 : 0o644);
    assert.notDeepEqual(await readByOtherUser(NOBODY, paths), []);
    const started = await runLnk(["agent", "start"], home);
    assert.equal(started.code, 0, started.stderr);
    // Tests side by side may hold main's port: a move may be said too.
    assert.equal(
      started.stderr.replace(/^Moved agent "main" to ports .*\n/m, ""),
      'Made the folders of agent "main" yours alone: other users could read them\n',
    );
    assert.deepEqual(await readByOtherUser(NOBODY, await pathsUnder(home.path)), []);
    const layout = layoutOf(home.paths, await loadSettings(home.paths, id));
    for (const gate of [home.paths.lnk, layout.root]) {
      assert.equal((await Deno.stat(gate)).mode! & 0o777, 0o700);
    }
    await runLnk(["agent", "stop"], home);
  },
);

Deno.test("a folder of the agent's that other users could write refuses the start, saying how to close it", async () => {
  await using home = await tempHome();
  const { id } = await runJson<{ id: string }>(["agent", "create", "work", "--harness", "mini"], home);
  const layout = layoutOf(home.paths, await loadSettings(home.paths, id));
  await Deno.chmod(layout.config, 0o777);
  await Deno.chmod(layout.root, 0o777);
  const refused = await runCli(["agent", "start"], home);
  assert.deepEqual(refused, {
    code: 1,
    stdout: "",
    stderr:
      `error: Cannot start agent "work": other users could have written "${layout.root}" (and 1 more)\n` +
      "  hint: Check that nothing in them was put there by someone else, make them yours alone with " +
      `\`chmod -R go-rwx "${home.paths.lnk}" "${layout.root}"\`, then start the agent again\n`,
  });
  const status = await runJson<{ state: string }>(["agent", "status"], home);
  assert.equal(status.state, "stopped");
  await Deno.chmod(layout.config, 0o700);
  await Deno.chmod(layout.root, 0o700);
  assert.equal((await runCli(["agent", "start"], home)).code, 0);
  await runCli(["agent", "stop"], home);
});

Deno.test("lnk agent create makes every folder 0700 and every file 0600 whatever the umask (item 11)", async () => {
  await using home = await tempHome();
  const created = await runLnk(["agent", "create", "--harness", "mini"], home, { umask: 0o000 });
  assert.equal(created.code, 0, created.stderr);
  assert.deepEqual(await openModes(await pathsUnder(home.path)), []);
});
