import { z } from "zod";
import { atomicWrite, readTextIfExists } from "../base/mod.ts";

/**
 * What a harness's launcher keeps in the harness home while the harness is live in the sandbox:
 * since when, and on which port (a gateway's, for one that has one). The harness can write its home, so the
 * mark is read to this schema alone: nothing of it reaches a terminal unless it is a time and a
 * port.
 */
export const LiveMark = z.strictObject({
  since: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/),
  port: z.number().int().min(1).max(65535).optional(),
});
export type LiveMark = z.infer<typeof LiveMark>;

/** Writes the mark as the launcher's harness comes up. */
export async function writeLiveMark(path: string, port?: number): Promise<void> {
  const mark: LiveMark = { since: new Date().toISOString(), ...(port === undefined ? {} : { port }) };
  await atomicWrite(path, `${JSON.stringify(mark)}\n`);
}

/** The mark at `path`: none, or "unreadable" when it is not one (garbage the harness wrote). */
export async function readLiveMark(path: string): Promise<LiveMark | "unreadable" | undefined> {
  const text = await readTextIfExists(path);
  if (text === undefined) return undefined;
  try {
    const parsed = LiveMark.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : "unreadable";
  } catch {
    return "unreadable";
  }
}
