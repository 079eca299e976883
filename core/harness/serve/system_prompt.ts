import { join } from "node:path";

/**
 * The agent's system prompt: its instructions (every `.md` file of `Agent/instructions/`, in name
 * order), read once at the start, so the prompt is the same bytes from turn to turn (PRN-2).
 */
export async function readSystemPrompt(agentDir: string, name: string): Promise<string> {
  const dir = join(agentDir, "instructions");
  const parts: string[] = [];
  try {
    const names = (await Array.fromAsync(Deno.readDir(dir)))
      .filter((e) => e.isFile && e.name.endsWith(".md"))
      .map((e) => e.name)
      .sort();
    for (const file of names) parts.push((await Deno.readTextFile(join(dir, file))).trim());
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  return parts.filter(Boolean).join("\n\n") || `You are ${name}, a personal agent run by Link.`;
}
