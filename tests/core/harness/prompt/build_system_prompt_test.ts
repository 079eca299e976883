import assert from "node:assert/strict";
import { join } from "node:path";
import { buildSystemPrompt, firstDescriptionLine, listSkills } from "../../../../core/harness/prompt/mod.ts";
import { toolFixture } from "../../../support/tool_fixture.ts";

Deno.test("buildSystemPrompt() is byte-identical across two builds of the same files (PRN-2)", async () => {
  await using fx = await toolFixture();
  await fx.write("Agents/a/Agent/instructions/b-style.md", "Write short answers.\n");
  await fx.write(
    "Agents/a/Agent/skills/pdf/SKILL.md",
    "---\nname: pdf\ndescription: Read PDF files\n---\n# PDF\n",
  );
  const input = { folders: fx.folders, agentName: "a", files: { ".": "write", work: "read" } as const };
  const first = await buildSystemPrompt(input);
  const second = await buildSystemPrompt(input);
  assert.equal(new TextEncoder().encode(first).join(), new TextEncoder().encode(second).join());
  assert.equal(
    first,
    `You are "a", a personal agent running on your owner's machine through Link.

# Instructions

# a
be kind

Write short answers.

# Skills

Before using a skill, read its instructions with skill_read.
- pdf: Read PDF files

# Your folders

Your file tools see one set of folders; paths are relative to it, such as "work/notes.md".
- . (Home: your owner's documents and your work): read and write
- instructions/ (your instructions, which your owner edits): hidden
- skills/ (your skills): hidden
- chats/ (your conversations, which only the harness writes): hidden
- work/: read only
Programs started with run begin in Home. Your notes (note_write, note_read, note_list) are kept apart from these folders.
`,
  );
});

Deno.test("buildSystemPrompt() shows an instructions edit at the next build (LAY-4)", async () => {
  await using fx = await toolFixture();
  const before = await buildSystemPrompt({ folders: fx.folders, agentName: "a" });
  await Deno.writeTextFile(join(fx.folders.instructions, "agent.md"), "# a\nbe brief\n");
  const after = await buildSystemPrompt({ folders: fx.folders, agentName: "a" });
  assert.notEqual(after, before);
  assert.equal(after, before.replace("be kind", "be brief"));
});

Deno.test("buildSystemPrompt() lists skills whether or not any folder is granted, and says when there are none (SKL-5)", async () => {
  await using fx = await toolFixture();
  const none = await buildSystemPrompt({ folders: fx.folders, agentName: "a", files: { ".": "none" } });
  assert.match(none, /# Skills\n\nNo skills are installed\.\n/);
  await fx.write("Agents/a/Agent/skills/zeta/README.md", "# Zeta\n\nDoes zeta things.\nMore.");
  await fx.write("Agents/a/Agent/skills/alpha/SKILL.md", "Alpha first line");
  const some = await buildSystemPrompt({ folders: fx.folders, agentName: "a", files: { ".": "none" } });
  assert.match(some, /\n- alpha: Alpha first line\n- zeta: Does zeta things\.\n/);
});

Deno.test("buildSystemPrompt() reads only *.md regular files of instructions/, never through a link (LAY-9)", async () => {
  await using fx = await toolFixture();
  await fx.write("Agents/a/Agent/instructions/notes.txt", "not markdown");
  await Deno.symlink(join(fx.outside, "secret.txt"), join(fx.folders.instructions, "leak.md"));
  await Deno.symlink(fx.outside, join(fx.folders.skills, "linked"));
  const prompt = await buildSystemPrompt({ folders: fx.folders, agentName: "a" });
  assert.equal(prompt.includes("the secret"), false);
  assert.equal(prompt.includes("not markdown"), false);
  assert.match(prompt, /No skills are installed\./);
});

Deno.test("listSkills() orders by code point and takes each skill's first description line", async () => {
  await using fx = await toolFixture();
  await fx.write(
    "Agents/a/Agent/skills/b/SKILL.md",
    "---\ndescription: >\n  Folded first line\n  second\n---\n",
  );
  await fx.write("Agents/a/Agent/skills/B/SKILL.md", '---\nname: B\ndescription: "Quoted"\n---\n');
  await Deno.mkdir(join(fx.folders.skills, "empty"));
  assert.deepEqual(await listSkills(fx.folders.skills), [
    { name: "B", description: "Quoted" },
    { name: "b", description: "Folded first line" },
    { name: "empty", description: "" },
  ]);
});

Deno.test("firstDescriptionLine() falls back to the first line of text, then a heading", () => {
  assert.equal(firstDescriptionLine("---\nname: x\n---\n# Title\n\nBody line\n"), "Body line");
  assert.equal(firstDescriptionLine("# Only a heading\n"), "Only a heading");
  assert.equal(firstDescriptionLine(""), "");
  assert.equal(firstDescriptionLine("x".repeat(300)).length, 200);
});
