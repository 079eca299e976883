import assert from "node:assert/strict";
import { join } from "node:path";
import { skillReadTool } from "../../../../core/harness/tools/mod.ts";
import { call, firstLine, toolFixture } from "../../../support/tool_fixture.ts";

const skillRead = skillReadTool();

Deno.test("skill_read reads a skill's SKILL.md, its README.md, or another file of it", async () => {
  await using fx = await toolFixture();
  await fx.write("Agents/a/Agent/skills/pdf/SKILL.md", "---\nname: pdf\n---\nUse pdftotext.");
  await fx.write("Agents/a/Agent/skills/pdf/reference.md", "More.");
  await fx.write("Agents/a/Agent/skills/old/README.md", "An older skill.");
  const ctx = fx.ctx();
  assert.deepEqual(await call(skillRead, { name: "pdf" }, ctx), {
    content: "---\nname: pdf\n---\nUse pdftotext.",
    isError: false,
  });
  assert.deepEqual(await call(skillRead, { name: "pdf", file: "reference.md" }, ctx), {
    content: "More.",
    isError: false,
  });
  assert.deepEqual(await call(skillRead, { name: "old" }, ctx), {
    content: "An older skill.",
    isError: false,
  });
  assert.deepEqual(await call(skillRead, { name: "nope" }, ctx), {
    content: 'Cannot read skill "nope": there is no such skill\n  hint: Your skills: old, pdf',
    isError: true,
  });
});

Deno.test("skill_read refuses .. and links that lead out of the skill", async () => {
  await using fx = await toolFixture();
  await fx.write("Agents/a/Agent/skills/pdf/SKILL.md", "ok");
  await Deno.symlink(join(fx.outside, "secret.txt"), join(fx.folders.skills, "pdf", "leak.md"));
  await Deno.symlink(fx.outside, join(fx.folders.skills, "evil"));
  const ctx = fx.ctx();
  assert.equal(
    firstLine(await call(skillRead, { name: "pdf", file: "../../instructions/agent.md" }, ctx)),
    'Cannot read "../../instructions/agent.md" of skill "pdf": it leads out of the skill',
  );
  assert.equal(
    firstLine(await call(skillRead, { name: "pdf", file: "leak.md" }, ctx)),
    'Cannot read "leak.md" of skill "pdf": it is a link out of the skill',
  );
  assert.equal(
    firstLine(await call(skillRead, { name: "evil", file: "secret.txt" }, ctx)),
    'Cannot read skill "evil": there is no such skill',
  );
  assert.equal(
    firstLine(await call(skillRead, { name: ".." }, ctx)),
    "Cannot run skill_read: some arguments are not valid:",
  );
});
