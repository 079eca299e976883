import { join } from "node:path";
import { SYSTEM_CLOCK } from "../../core/base/mod.ts";
import type { Clock } from "../../core/base/mod.ts";
import type { AgentFolders, HarnessTool, ToolContext, ToolResult } from "../../core/harness/tools/mod.ts";
import { SandboxSpec } from "../../sandbox/mod.ts";

/** A real agent layout in a temp folder: Home, Agent/ with its collections, and a folder outside both. */
export interface ToolFixture extends AsyncDisposable {
  readonly root: string;
  readonly folders: AgentFolders;
  /** A folder beside the agent's, holding secret.txt: what no tool may reach. */
  readonly outside: string;
  /** A call context with these grants (the sandbox file's sections, defaults filled in). */
  ctx(grants?: Record<string, unknown>, extra?: Partial<ToolContext>): ToolContext;
  /** Writes a file under the fixture's root, making its folders. */
  write(path: string, text: string): Promise<void>;
  read(path: string): Promise<string>;
}

/** Makes the layout with a few files in place. */
export async function toolFixture(clock: Clock = SYSTEM_CLOCK): Promise<ToolFixture> {
  const root = await Deno.makeTempDir({ prefix: "lnk-tools-" });
  const agent = join(root, "Agents", "a", "Agent");
  const folders: AgentFolders = {
    home: join(root, "Agents", "a", "Home"),
    instructions: join(agent, "instructions"),
    skills: join(agent, "skills"),
    memory: join(agent, "memory"),
    chats: join(agent, "chats"),
  };
  for (const dir of [folders.home, ...Object.values(folders), join(agent, "schedule")]) {
    await Deno.mkdir(dir, { recursive: true });
  }
  const outside = join(root, "outside");
  const write = async (path: string, text: string) => {
    const full = join(root, path);
    await Deno.mkdir(join(full, ".."), { recursive: true });
    await Deno.writeTextFile(full, text);
  };
  await write("outside/secret.txt", "the secret");
  await write("Agents/a/Home/work/plan.md", "the plan\n");
  await write("Agents/a/Home/docs/letter.txt", "dear owner\n");
  await write("Agents/a/Agent/instructions/agent.md", "# a\nbe kind\n");
  await write("Agents/a/Agent/chats/link:1/events.jsonl", "{}\n");
  await write("Agents/a/Agent/memory/index.md", "memory\n");
  return {
    root,
    folders,
    outside,
    ctx: (grants = {}, extra = {}) => ({
      agentId: "a1",
      owner: "owner",
      folders,
      grants: SandboxSpec.parse(grants),
      conversation: "link:1",
      signal: new AbortController().signal,
      clock,
      ...extra,
    }),
    write,
    read: (path) => Deno.readTextFile(join(root, path)),
    async [Symbol.asyncDispose]() {
      await Deno.remove(root, { recursive: true });
    },
  };
}

/** Runs a tool and returns its result. */
export function call(tool: HarnessTool, args: unknown, ctx: ToolContext): Promise<ToolResult> {
  return tool.run(args, ctx);
}

/** The first line of a result: what it said, without its hint. */
export function firstLine(result: ToolResult): string {
  return result.content.split("\n")[0]!;
}
