import { join } from "node:path";
import { z } from "zod";
import { atomicWrite, type LinkPaths, logger } from "../../core/base/mod.ts";

const log = logger("link");

/** An answer the bridge holds for a `link` thread: one to a message from others, such as a reminder (LOC-5). */
export const HeldAnswer = z.strictObject({ thread: z.string(), text: z.string(), at: z.number() });
export type HeldAnswer = z.infer<typeof HeldAnswer>;

/**
 * Where the bridge holds a connection's answers nobody waits for (`link` unless named): the
 * connection's folder, which no harness reaches. On `link` the next chat on the thread prints
 * them; a carried connection (Telegram) sends them to its owner's own chat.
 */
export function heldDir(paths: LinkPaths, agentId: string, connection = "link"): string {
  return join(paths.connectionDir(agentId, connection), "held");
}

/** Holds an answer for the next chat on its thread, as a connection's plugin would send it to its chat. */
export async function holdAnswer(dir: string, answer: HeldAnswer): Promise<void> {
  const name = `${String(answer.at).padStart(15, "0")}-${crypto.randomUUID().slice(0, 8)}.json`;
  await atomicWrite(join(dir, name), JSON.stringify(HeldAnswer.parse(answer)), { mode: 0o600 });
}

/**
 * Takes the answers held for a thread, oldest first: each is deleted as it is taken, so it
 * prints once (LOC-5).
 */
export async function takeHeld(dir: string, thread: string): Promise<HeldAnswer[]> {
  let names: string[];
  try {
    names = (await Array.fromAsync(Deno.readDir(dir))).filter((e) => e.isFile && e.name.endsWith(".json"))
      .map((e) => e.name).sort();
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return [];
    throw err;
  }
  const taken: HeldAnswer[] = [];
  for (const name of names) {
    const path = join(dir, name);
    let held: HeldAnswer;
    try {
      held = HeldAnswer.parse(JSON.parse(await Deno.readTextFile(path)));
    } catch (err) {
      log.warn("Cannot read a held answer", { path, error: err });
      continue;
    }
    if (held.thread !== thread) continue;
    try {
      await Deno.remove(path);
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) continue; // another chat took it
      throw err;
    }
    taken.push(held);
  }
  return taken;
}
