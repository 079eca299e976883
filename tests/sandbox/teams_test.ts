/**
 * Team folders from inside a real sandbox, made the way an agent's is (TEAM-2, TEAM-11..13): its
 * grants written by `lnk agent team add`, its harness's sandbox from its policy. Run as root here
 * and as an ordinary user by as_user_test.ts.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { CheckRow } from "../../core/agent/grants/mod.ts";
import { runCli, runJson, runLnk, tempHome } from "../support/mod.ts";
import { sandboxTest } from "../support/sandbox.ts";

type Home = Awaited<ReturnType<typeof tempHome>>;

/**
 * main on team "lab" writing src and reading docs, with `--read '~'`; "theirs" (another agent's,
 * kept outside ~/Link) and "far" (no member) beside it, each with a file in it. No internet, so
 * its sandbox needs no proxy.
 */
async function teams(home: Home) {
  await runJson(["agent", "create", "main"], home);
  await runJson(["agent", "create", "other"], home);
  for (const agent of ["main", "other"]) {
    await runJson(["agent", "deny", "--agent", agent, "--host", "*"], home);
  }
  await runJson(["agent", "allow", "--agent", "main", "--read", "~"], home);
  const elsewhere = join(home.path, "elsewhere", "theirs");
  const lab = (await runJson<{ folder: string }>(["agent", "team", "create", "lab"], home)).folder;
  await runJson(["agent", "team", "create", "theirs", "--folder", elsewhere], home);
  const far = (await runJson<{ folder: string }>(["agent", "team", "create", "far"], home)).folder;
  await runJson(
    ["agent", "team", "add", "lab", "main", "--purpose", "Writes", "--write", "src", "--read", "docs"],
    home,
  );
  await runJson(["agent", "team", "add", "lab", "other", "--purpose", "Reads"], home);
  await runJson(["agent", "team", "add", "theirs", "other", "--purpose", "Keeps"], home);
  await Deno.writeTextFile(join(lab, "docs", "d.txt"), "docs\n");
  await Deno.writeTextFile(join(lab, "top.txt"), "top\n");
  await Deno.writeTextFile(join(elsewhere, "s.txt"), "theirs\n");
  await Deno.writeTextFile(join(far, "f.txt"), "far\n");
  return { lab, elsewhere, far, files: home.paths.teams };
}

sandboxTest(
  "a member's sandbox: writes its write folder, only reads its read folder, sees no other team and no team file, whatever --read '~' allows (TEAM-2, TEAM-11, TEAM-12)",
  async () => {
    await using home = await tempHome();
    const t = await teams(home);
    const script = [
      'w() { (echo x > "$1") 2>/dev/null && echo "wrote $1" || echo "denied $1"; }',
      'r() { cat "$1" 2>/dev/null || echo "unseen $1"; }',
      `cd "${t.lab}"; w src/a; w docs/a; r docs/d.txt; r top.txt; w top2.txt`,
      `ls -A "${home.path}/Link/Teams"; echo ---; ls -A "${t.lab}"; echo ---; ls -A "${t.elsewhere}"; echo ---`,
      `r "${t.elsewhere}/s.txt"; w "${t.elsewhere}/x"; r "${t.far}/f.txt"`,
      `r "${t.files}/lab.toml"; w "${t.files}/mine.toml"; ls -A "${t.files}" 2>/dev/null || echo "unseen ${t.files}"`,
    ].join("\n");
    const result = await runLnk(
      ["agent", "harness", "run", "--agent", "main", "--", "/bin/sh", "-c", script],
      home,
    );
    assert.deepEqual(result, {
      code: 0,
      stdout: [
        "wrote src/a",
        "denied docs/a",
        "docs",
        "unseen top.txt",
        "denied top2.txt",
        "lab",
        "---",
        "docs",
        "src",
        "---",
        "---",
        `unseen ${t.elsewhere}/s.txt`,
        `denied ${t.elsewhere}/x`,
        `unseen ${t.far}/f.txt`,
        `unseen ${t.files}/lab.toml`,
        `denied ${t.files}/mine.toml`,
        `unseen ${t.files}`,
        "",
      ].join("\n"),
      stderr: "",
    });
    assert.equal(await Deno.readTextFile(join(t.lab, "src", "a")), "x\n");
    for (const left of [join(t.lab, "docs", "a"), join(t.lab, "top2.txt"), join(t.files, "mine.toml")]) {
      assert.equal(await Deno.stat(left).then(() => true, () => false), false, left);
    }
  },
);

sandboxTest(
  "lnk agent harness check reads each granted team folder and fails to read the others, saying which (TEAM-13)",
  async () => {
    await using home = await tempHome();
    const t = await teams(home);
    const result = await runCli(["agent", "harness", "check", "--agent", "main", "--json"], home);
    const rows = JSON.parse(result.stdout) as CheckRow[];
    assert.deepEqual(
      rows.filter((r) => /team/i.test(r.check)).map((r) => [r.check, r.expected, r.result, r.ok]),
      [
        ["~/.lnk/teams (the team files)", "hidden", "hidden", true],
        ["~/Link/Teams (but what is granted)", "hidden", "hidden", true],
        [`team "far": ${t.far} (not on it)`, "hidden", "hidden", true],
        [`team "lab": ${t.lab} but its granted folders`, "hidden", "hidden", true],
        ['team "lab": src/ (granted write)', "writable", "writable", true],
        ['team "lab": docs/ (granted read)', "read-only", "read-only", true],
        [`team "theirs": ${t.elsewhere} (not on it)`, "hidden", "hidden", true],
      ],
    );
    assert.equal(result.code, 0, result.stdout);
    const other = await runCli(["agent", "harness", "check", "--agent", "other", "--json"], home);
    assert.deepEqual(
      (JSON.parse(other.stdout) as CheckRow[]).filter((r) => /^team/.test(r.check)).map((
        r,
      ) => [r.check, r.result]),
      [
        [`team "far": ${t.far} (not on it)`, "hidden"],
        [`team "lab": all of ${t.lab} (granted)`, "writable"],
        [`team "theirs": all of ${t.elsewhere} (granted)`, "writable"],
      ],
    );
    assert.equal(other.code, 0, other.stdout);
  },
);
