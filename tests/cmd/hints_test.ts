import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { ROOT } from "../../cmd/mod.ts";
import { type Command, type Group } from "../../cmd/mod.ts";
import { ROLES } from "../../main.ts";

const CHECKOUT = new URL("../../", import.meta.url).pathname;
/** Where Link's own source is: every file a person's hint can come from. */
const SOURCE = ["main.ts", "cmd", "core", "sandbox", "proxy", "link_bridge", "http1", "connections"];

/** Every `lnk ...` quoted in a string of Link's source (comments left out), with where it is. */
async function quotedCommands(): Promise<{ where: string; words: string[] }[]> {
  const found: { where: string; words: string[] }[] = [];
  for (const file of await sourceFiles()) {
    const lines = (await Deno.readTextFile(file)).split("\n");
    lines.forEach((line, i) => {
      if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
      // A quote ends at a backtick (escaped or not) or where a template's `${` begins.
      for (const match of line.matchAll(/\\?`lnk( [^`\\$]*)?/g)) {
        found.push({
          where: `${relative(CHECKOUT, file)}:${i + 1}`,
          words: (match[1] ?? "").trim().split(/\s+/),
        });
      }
    });
  }
  return found;
}

async function sourceFiles(): Promise<string[]> {
  const files: string[] = [];
  const walk = async (path: string) => {
    const info = await Deno.stat(path);
    if (info.isFile) {
      if (path.endsWith(".ts")) files.push(path);
      return;
    }
    for await (const entry of Deno.readDir(path)) await walk(join(path, entry.name));
  };
  for (const top of SOURCE) await walk(join(CHECKOUT, top));
  return files;
}

function isGroup(entry: Command | Group): entry is Group {
  return "commands" in entry;
}

/** What is wrong with `lnk <words>`: undefined when it names a real command (or role) and its flags. */
function problemOf(words: string[]): string | undefined {
  let entry: Command | Group = ROOT;
  const path: string[] = [];
  let i = 0;
  for (; i < words.length && isGroup(entry); i++) {
    const word = words[i]!;
    if (word === "" || !/^[a-z][a-z0-9-]*$/.test(word)) return undefined; // `lnk <name>`, `lnk agent ...`
    const next: Command | Group | undefined = Object.hasOwn(entry.commands, word)
      ? entry.commands[word]
      : undefined;
    if (next === undefined) {
      // A background role is two words from the start: `lnk proxy serve`, `lnk agent bridge`.
      const role = [...path, ...words.slice(i, i + 2 - path.length)].join(" ");
      if (Object.hasOwn(ROLES, role)) return undefined;
      return `"lnk ${[...path, word].join(" ")}" is no command`;
    }
    path.push(word);
    entry = next;
  }
  if (isGroup(entry)) return undefined;
  const usage = entry.usage;
  for (const word of words.slice(i)) {
    const flag = /^(--[a-z][a-z0-9-]*)/.exec(word)?.[1];
    if (flag && flag !== "--help" && !new RegExp(`${flag}(?![a-z-])`).test(usage)) {
      return `"lnk ${path.join(" ")}" takes no ${flag}`;
    }
  }
  return undefined;
}

Deno.test("every `lnk ...` a hint, message or help names is a real command, with flags it takes", async () => {
  const found = await quotedCommands();
  assert.ok(found.length > 50, `only ${found.length} quoted commands found: the scan is broken`);
  const wrong = found.flatMap(({ where, words }) => {
    const problem = problemOf(words);
    return problem ? [`${where}: ${problem}`] : [];
  });
  assert.deepEqual(wrong, []);
});

Deno.test("the hint check finds a command that does not exist, and a flag a command does not take", () => {
  assert.deepEqual(
    [["agent", "jump", "link"], ["agent", "harness", "rewind"], ["agent", "start", "--now"], [
      "agent",
      "start",
    ]]
      .map(problemOf),
    [
      '"lnk agent jump" is no command',
      '"lnk agent harness rewind" is no command',
      '"lnk agent start" takes no --now',
      undefined,
    ],
  );
});
