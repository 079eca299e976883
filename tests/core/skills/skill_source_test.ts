import assert from "node:assert/strict";
import { skillSource } from "../../../core/skills/mod.ts";

const CWD = "/home/bo/src";

Deno.test("skillSource() maps a GitHub folder's page to its repository, ref and folder (SKL-1)", () => {
  assert.deepEqual(skillSource("https://github.com/anthropics/skills/tree/main/skills/pdf", { cwd: CWD }), {
    clone: "https://github.com/anthropics/skills",
    ref: "main",
    path: "skills/pdf",
    name: "pdf",
  });
  assert.deepEqual(
    skillSource("https://www.github.com/o/r.git/tree/v1.2/a/b%20c/d-e/?tab=x#readme", { cwd: CWD }),
    {
      clone: "https://github.com/o/r",
      ref: "v1.2",
      path: "a/b c/d-e",
      name: "d-e",
    },
  );
  assert.deepEqual(skillSource("https://github.com/o/r/tree/dev", { cwd: CWD }), {
    clone: "https://github.com/o/r",
    ref: "dev",
    name: "r",
  });
  assert.deepEqual(skillSource("https://github.com/o/my-skill", { cwd: CWD }), {
    clone: "https://github.com/o/my-skill",
    name: "my-skill",
  });
  assert.deepEqual(skillSource("https://github.com/o/my-skill.git/", { cwd: CWD }), {
    clone: "https://github.com/o/my-skill",
    name: "my-skill",
  });
});

Deno.test("skillSource() clones any other git URL or path as it is, named for its last part", () => {
  const cases: [string, { clone: string; name: string }][] = [
    ["https://git.example.org/me/skills.git", {
      clone: "https://git.example.org/me/skills.git",
      name: "skills",
    }],
    ["ssh://git@example.org/me/notes", { clone: "ssh://git@example.org/me/notes", name: "notes" }],
    ["git@example.org:me/tidy.git", { clone: "git@example.org:me/tidy.git", name: "tidy" }],
    ["file:///srv/git/pdf.git", { clone: "file:///srv/git/pdf.git", name: "pdf" }],
    ["/srv/skills/pdf/", { clone: "/srv/skills/pdf/", name: "pdf" }],
    ["../skills/pdf", { clone: "/home/bo/src/../skills/pdf", name: "pdf" }],
    ["  pdf  ", { clone: "/home/bo/src/pdf", name: "pdf" }],
  ];
  for (const [url, want] of cases) assert.deepEqual(skillSource(url, { cwd: CWD }), want, url);
});

Deno.test("skillSource() gives no name a folder cannot have: the add asks for --name", () => {
  assert.equal(skillSource("https://github.com/o/r/tree/main/skills/.hidden", { cwd: CWD }).name, "");
  assert.equal(skillSource("/srv/ünï", { cwd: CWD }).name, "");
});

Deno.test("skillSource() refuses what git would read as an option, a command or a way out of the repository", () => {
  const refused = [
    "",
    "--upload-pack=touch pwned",
    "-c core.sshCommand=evil",
    "ext::sh -c touch% pwned",
    "fd::17",
    "ssh://-oProxyCommand=touch%20pwned/x",
    "ssh://me@-oProxyCommand=touch%20pwned/x",
    "git@-oProxyCommand=touch:x",
    "transport::anything",
    "ftp://example.org/x.git",
    "https://example.org/a\nb",
    "https://github.com/o/r/blob/main/skills/pdf/SKILL.md",
    "https://github.com/o/r/tree/main/../../etc",
    "https://github.com/o/r/tree/main/skills/%2e%2e/x",
    "https://github.com/o/r/tree/main/skills%2fpdf",
    "https://github.com/o/r/tree/main/a%0ab",
    "https://github.com/o/r/tree/main/.git/hooks",
    "https://github.com/o/r/tree/-bad/x",
    "https://github.com/o/r/tree/a..b/x",
    "https://github.com/o/r/pulls",
    "https://github.com/o/r/tree",
  ];
  for (const url of refused) {
    assert.throws(() => skillSource(url, { cwd: CWD }), { name: "LinkError", code: "USAGE" }, url);
  }
});
