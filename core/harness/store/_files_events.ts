import { joinPath } from "../../base/mod.ts";
import { ConversationEvent, type StoredEvent } from "./contract.ts";
import { checkEventNumber } from "./store_checks.ts";
import { parseStoredJson } from "./stored_json.ts";
import { namesIn, removeStaleTemps } from "./_files_temps.ts";

const EVENT_NAME = /^([1-9][0-9]*)\.json$/;

/**
 * Writes `events/<n>.json` only if it does not exist (TRN-8, U-61). The event is written whole to a
 * temp file first, then hard-linked to its number: link(2) fails when the name exists, like
 * O_CREAT|O_EXCL, and the number appears with all its bytes at once, so no reader or crash ever
 * sees half an event.
 */
export async function appendEventFile(
  folder: string,
  n: number,
  event: ConversationEvent,
): Promise<"ok" | "conflict"> {
  checkEventNumber(n);
  const dir = joinPath(folder, "events");
  await Deno.mkdir(dir, { recursive: true });
  const tmp = joinPath(dir, `.${crypto.randomUUID()}.tmp`);
  await writeSynced(tmp, `${JSON.stringify(event)}\n`);
  try {
    await Deno.link(tmp, joinPath(dir, `${n}.json`));
    return "ok";
  } catch (err) {
    if (err instanceof Deno.errors.AlreadyExists) return "conflict";
    throw err;
  } finally {
    await Deno.remove(tmp).catch(() => {});
  }
}

/**
 * Reads `events/<n>.json` numbered `from` and after, in order, each checked against the schema.
 * Only a number is an event: a temp file of a write killed mid-way is never read, and one older
 * than STALE_TEMP_MS at `nowMs` is removed on the way.
 */
export async function readEventFiles(folder: string, from: number, nowMs: number): Promise<StoredEvent[]> {
  checkEventNumber(from);
  const dir = joinPath(folder, "events");
  const names = await namesIn(dir);
  const numbers: number[] = [];
  for (const name of names) {
    const match = EVENT_NAME.exec(name);
    if (match && Number(match[1]) >= from) numbers.push(Number(match[1]));
  }
  await removeStaleTemps(dir, names, nowMs);
  numbers.sort((a, b) => a - b);
  const events: StoredEvent[] = [];
  for (const n of numbers) {
    const path = joinPath(dir, `${n}.json`);
    events.push({ n, event: parseStoredJson(ConversationEvent, await Deno.readTextFile(path), `"${path}"`) });
  }
  return events;
}

async function writeSynced(path: string, text: string): Promise<void> {
  const file = await Deno.open(path, { write: true, createNew: true, mode: 0o600 });
  try {
    const bytes = new TextEncoder().encode(text);
    let offset = 0;
    while (offset < bytes.length) offset += await file.write(bytes.subarray(offset));
    await file.sync();
  } finally {
    file.close();
  }
}
