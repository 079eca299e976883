import assert from "node:assert/strict";
import { layoutOf, loadSettings } from "../../../core/agent/mod.ts";
import { runCli, runJson, type TempHome, tempHome } from "../../support/mod.ts";
import { gitRepo, skillMd } from "../../support/git_repo.ts";

const MEMORY_OFF =
  'Memory is off for agent "main": the skill is listed in every prompt, and what the agent ' +
  "learns using it is not kept (turn memory on with `lnk agent memory on --agent main` to keep it)\n";

async function agentNamed(home: TempHome, name: string, harness = "link") {
  const { id } = await runJson<{ id: string }>(["agent", "create", name, "--harness", harness], home);
  return layoutOf(home.paths, await loadSettings(home.paths, id));
}

async function names(dir: string): Promise<string[]> {
  try {
    return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return [];
    throw err;
  }
}

Deno.test("lnk agent skill add, list and remove: a sub-folder of a repository by its path, a repository by file:// URL (SKL-1, SKL-6)", async () => {
  await using home = await tempHome();
  const layout = await agentNamed(home, "main");
  await using tools = await gitRepo({
    "skills/pdf/SKILL.md": skillMd("Reads PDFs"),
    "skills/pdf/passwd": { link: "/etc/passwd" },
    "skills/csv/SKILL.md": skillMd("Reads CSV"),
  });
  await using notes = await gitRepo({ "SKILL.md": skillMd("Takes notes"), "template.md": "# Notes\n" });
  const bytes = skillMd("Reads PDFs").length;
  assert.deepEqual(await runCli(["agent", "skill", "add", `${tools.path}/skills/pdf`], home), {
    code: 0,
    stdout:
      `Added skill "pdf" to agent "main" (1 file, ${bytes} B): Reads PDFs\n  left out "passwd": a link\n`,
    stderr: MEMORY_OFF,
  });
  const added = await runJson<Record<string, unknown>>([
    "agent",
    "skill",
    "add",
    notes.url,
    "--name",
    "notes",
    "--json",
  ], home);
  assert.deepEqual({ name: added.name, files: added.files, source: added.source }, {
    name: "notes",
    files: 2,
    source: { clone: notes.url, name: notes.path.split("/").at(-1) },
  });
  assert.deepEqual(await names(layout.collection("skills")), ["notes", "pdf"]);
  assert.deepEqual(await names(`${layout.collection("skills")}/notes`), ["SKILL.md", "template.md"]);
  assert.deepEqual(await runCli(["agent", "skill", "list"], home), {
    code: 0,
    stdout: "notes  Takes notes\npdf  Reads PDFs\n",
    stderr: "",
  });
  assert.deepEqual(await runJson(["agent", "skill", "list", "--json"], home), {
    agent: "main",
    skills: [{ name: "notes", description: "Takes notes" }, { name: "pdf", description: "Reads PDFs" }],
    others: [],
  });
  assert.deepEqual(await runCli(["agent", "skill", "remove", "pdf"], home), {
    code: 0,
    stdout: 'Removed skill "pdf" from agent "main"\n',
    stderr: "",
  });
  assert.deepEqual(await names(layout.collection("skills")), ["notes"]);
  assert.deepEqual(await runJson(["agent", "skill", "remove", "notes", "--json"], home), {
    agent: "main",
    removed: "notes",
  });
  assert.deepEqual(await runCli(["agent", "skill", "list"], home), {
    code: 0,
    stdout: 'Agent "main" has no skill\n',
    stderr: "",
  });
  assert.deepEqual(await names(home.paths.skillClones), [], "each clone is removed once copied");
});

Deno.test("lnk agent skill add refuses a name already installed, a URL that does not clone, a folder with no SKILL.md, leaving nothing", async () => {
  await using home = await tempHome();
  const layout = await agentNamed(home, "main");
  await using repo = await gitRepo({
    "skills/pdf/SKILL.md": skillMd("Reads PDFs"),
    "skills/empty/a.txt": "a\n",
  });
  assert.equal((await runCli(["agent", "skill", "add", `${repo.path}/skills/pdf`], home)).code, 0);
  const skillMdBefore = await Deno.readTextFile(`${layout.collection("skills")}/pdf/SKILL.md`);
  assert.deepEqual(await runCli(["agent", "skill", "add", `${repo.path}/skills/pdf`], home), {
    code: 1,
    stdout: "",
    stderr: 'error: Cannot add skill "pdf": agent "main" has a skill by that name\n' +
      "  hint: Remove it first with `lnk agent skill remove pdf --agent main`, or add this one under another name with --name\n",
  });
  assert.equal(await Deno.readTextFile(`${layout.collection("skills")}/pdf/SKILL.md`), skillMdBefore);

  const missing = `${home.path}/no-such-repo`;
  assert.deepEqual(await runCli(["agent", "skill", "add", `file://${missing}`], home), {
    code: 1,
    stdout: "",
    stderr: `error: Cannot clone "file://${missing}": '${missing}' does not appear to be a git repository\n` +
      "  hint: Check that `git clone` takes the URL for you, then add the skill again\n",
  });
  const json = await runCli(["agent", "skill", "add", `file://${missing}`, "--json"], home);
  assert.equal(JSON.parse(json.stdout).error.code, "CLONE_FAILED");
  // A token in the URL is never shown, in what git said or in Link's words.
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("no", { status: 404 }),
  );
  const withToken = `http://me:s3cret-token@127.0.0.1:${server.addr.port}/o/r.git`;
  const refused = await runCli(["agent", "skill", "add", withToken, "--json"], home);
  assert.equal(JSON.parse(refused.stdout).error.code, "CLONE_FAILED");
  assert.equal(refused.stdout.includes("s3cret-token"), false, refused.stdout);
  assert.match(
    JSON.parse(refused.stdout).error.message,
    /^Cannot clone "http:\/\/me:\*\*\*@127\.0\.0\.1:\d+\/o\/r\.git": /,
  );
  const empty = await runCli(["agent", "skill", "add", `${repo.path}/skills/empty`, "--json"], home);
  assert.equal(JSON.parse(empty.stdout).error.code, "INVALID");
  const badName = await runCli(["agent", "skill", "add", repo.url, "--name", "../x", "--json"], home);
  assert.equal(JSON.parse(badName.stdout).error.code, "USAGE");
  assert.deepEqual(await runCli(["agent", "skill", "add"], home), {
    code: 2,
    stdout: "",
    stderr: "error: Cannot add a skill: give its git URL\n" +
      "  hint: Usage: lnk agent skill add <git url> [--name <name>] [--agent <name>] [--json]\n",
  });
  const gone = await runCli(["agent", "skill", "remove", "pdf2", "--json"], home);
  assert.equal(JSON.parse(gone.stdout).error.code, "INVALID");
  assert.deepEqual(await names(layout.collection("skills")), ["pdf"]);
  assert.deepEqual(await names(home.paths.skillClones), []);
});

Deno.test("lnk agent skill add says when the agent's harness does not read Link's skills (SKL-4), and says nothing of memory once it is on (SKL-6)", async () => {
  await using home = await tempHome();
  await agentNamed(home, "main");
  const mini = await agentNamed(home, "echo", "mini");
  await using repo = await gitRepo({ "SKILL.md": skillMd("Reads PDFs") });
  const onMini = await runCli(["agent", "skill", "add", repo.path, "--name", "pdf", "--agent", "echo"], home);
  assert.equal(onMini.code, 0, onMini.stderr);
  assert.equal(
    onMini.stderr,
    'Agent "echo" runs the harness "mini", which does not read Link\'s skills: it will not read "pdf"\n' +
      MEMORY_OFF.replaceAll("main", "echo"),
  );
  assert.equal((await runJson(["agent", "skill", "list", "--agent", "echo", "--json"], home)).agent, "echo");
  await Deno.writeTextFile(mini.specToml, "\n[memory]\non = true\n", { append: true });
  const json = await runJson<Record<string, unknown>>(
    ["agent", "skill", "add", repo.path, "--name", "pdf2", "--agent", "echo", "--json"],
    home,
  );
  assert.deepEqual([json.harnessReadsSkills, json.memory], [false, true]);
  const onLink = await runCli(["agent", "skill", "add", repo.path, "--name", "pdf", "--agent", "main"], home);
  assert.equal(onLink.code, 0, onLink.stderr);
  assert.equal(onLink.stderr, MEMORY_OFF, "Link Harness reads skills: only memory is said");
});
