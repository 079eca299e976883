import assert from "node:assert/strict";
import {
  builtinTools,
  callTool,
  narrowToolNames,
  narrowTools,
  toolDefinitions,
} from "../../../../core/harness/tools/mod.ts";
import { SandboxSpec } from "../../../../sandbox/mod.ts";
import { toolFixture } from "../../../support/tool_fixture.ts";

const ALL = [
  "list_files",
  "read_file",
  "write_file",
  "edit_file",
  "run",
  "web_fetch",
  "note_write",
  "note_read",
  "note_list",
  "skill_read",
];

Deno.test("builtinTools() lists files, run, web, notes and skills in a fixed order (PRN-3)", () => {
  const tools = builtinTools({ grants: SandboxSpec.parse({}) });
  assert.deepEqual(tools.map((t) => t.name), ALL);
});

Deno.test("builtinTools() gives byte-identical definitions for two starts with the same grants (PRN-2)", () => {
  const grants = SandboxSpec.parse({ commands: { allow: ["git"] } });
  const first = JSON.stringify(toolDefinitions(builtinTools({ grants })));
  const second = JSON.stringify(
    toolDefinitions(builtinTools({ grants: SandboxSpec.parse({ commands: { allow: ["git"] } }) })),
  );
  assert.equal(first, second);
  const readFile = toolDefinitions(builtinTools({ grants }))[1];
  assert.deepEqual(readFile?.function.parameters, {
    type: "object",
    properties: {
      path: {
        type: "string",
        minLength: 1,
        description: 'A path in your folders, such as "work/notes.md" or "instructions/agent.md"',
      },
      offset: {
        description: "The byte to start at, for reading a long file page by page",
        type: "integer",
        minimum: 0,
        maximum: Number.MAX_SAFE_INTEGER,
      },
    },
    required: ["path"],
    additionalProperties: false,
  });
});

Deno.test("builtinTools() leaves out tools the grants give nothing to do", () => {
  const grants = SandboxSpec.parse({
    files: { ".": "read", instructions: "read", chats: "read" },
    commands: { allow: [] },
    internet: { hosts: [] },
  });
  assert.deepEqual(builtinTools({ grants }).map((t) => t.name), [
    "list_files",
    "read_file",
    "note_write",
    "note_read",
    "note_list",
    "skill_read",
  ]);
});

Deno.test("narrowToolNames() only narrows: {a,b} then {b,c} is {b} (TRN-12)", () => {
  assert.deepEqual(narrowToolNames(["a", "b"], ["b", "c"]), ["b"]);
  assert.deepEqual(narrowToolNames(undefined, ["b", "c", "b"]), ["b", "c"]);
  assert.deepEqual(narrowToolNames(["a", "b"], undefined), ["a", "b"]);
  assert.equal(narrowToolNames(undefined, undefined), undefined);
  assert.deepEqual(narrowToolNames(["a"], []), []);
});

Deno.test("narrowTools() keeps the start's order and only the names the conversation has (TRN-12)", () => {
  const tools = builtinTools({ grants: SandboxSpec.parse({}) });
  assert.deepEqual(narrowTools(tools, ["skill_read", "read_file", "not_a_tool"]).map((t) => t.name), [
    "read_file",
    "skill_read",
  ]);
  assert.deepEqual(narrowTools(tools, undefined).map((t) => t.name), ALL);
});

Deno.test("callTool() answers an unknown tool and arguments that are not JSON with a result", async () => {
  await using fx = await toolFixture();
  const tools = narrowTools(builtinTools({ grants: SandboxSpec.parse({}) }), ["read_file", "list_files"]);
  const ctx = fx.ctx();
  assert.deepEqual(await callTool(tools, { name: "write_file", arguments: "{}" }, ctx), {
    content: 'Cannot call "write_file": there is no such tool in this conversation\n' +
      "  hint: Use one of: list_files, read_file",
    isError: true,
  });
  assert.deepEqual(await callTool(tools, { name: "read_file", arguments: "{path:" }, ctx), {
    content:
      "Cannot run read_file: its arguments are not valid JSON\n  hint: Send the arguments as one JSON object",
    isError: true,
  });
  assert.deepEqual(await callTool(tools, { name: "list_files", arguments: "" }, ctx), {
    content: "chats/\ndocs/\ninstructions/\nskills/\nwork/",
    isError: false,
  });
});
