import { atomicWrite, joinPath, logger, readTextIfExists } from "../../core/base/mod.ts";
import type { ChatAccess } from "../../core/spec/mod.ts";
import { kindOf, type SignalEnvelope } from "./signal_envelope.ts";

const log = logger("signal");

/** Who an envelope is answered for: its thread, where the answer goes, and who wrote it if not the owner. */
export interface Addressee {
  /** `signal:<number>`: the owner's number for the owner (CON-10). */
  thread: string;
  /** The number (or ACI) the answer is sent to. */
  recipient: string;
  /** The source as `link.local/request` names it: `signal:<source>:<timestamp>`. */
  source: string;
  /** `person:signal:<number>` for a person in `[access] message` (ACS-2). */
  from?: string;
}

/**
 * The owner, known by the number the person typed (CON-6) and, once an envelope from that number
 * shows it, by their ACI (uuid), kept in the connection's folder: Signal may hide a sender's
 * number, never their ACI.
 */
export class SignalOwner {
  readonly number: string;
  #uuid: string | undefined;
  #path: string;

  private constructor(number: string, uuid: string | undefined, path: string) {
    this.number = number;
    this.#uuid = uuid;
    this.#path = path;
  }

  /** The owner of a connection, with the ACI learned before if any. */
  static async open(stateDir: string, number: string): Promise<SignalOwner> {
    const path = joinPath(stateDir, "owner_uuid.json");
    let uuid: string | undefined;
    try {
      const kept = JSON.parse(await readTextIfExists(path) ?? "null") as
        | { number?: unknown; uuid?: unknown }
        | null;
      if (kept?.number === number && typeof kept.uuid === "string") uuid = kept.uuid;
    } catch {
      log.warn("Ignoring an unreadable kept ACI of the Signal owner");
    }
    return new SignalOwner(number, uuid, path);
  }

  /** Whether the owner sent it; an ACI first seen beside the owner's number is kept. */
  async sent(envelope: SignalEnvelope): Promise<boolean> {
    if (
      envelope.sourceNumber === this.number || (!envelope.sourceNumber && envelope.source === this.number)
    ) {
      if (envelope.sourceUuid && envelope.sourceUuid !== this.#uuid) {
        this.#uuid = envelope.sourceUuid;
        await atomicWrite(this.#path, JSON.stringify({ number: this.number, uuid: this.#uuid }));
      }
      return true;
    }
    return this.#uuid !== undefined && envelope.sourceUuid === this.#uuid;
  }
}

/**
 * Whom a kept envelope is answered for: the owner's own direct messages, and those of the people
 * in `[access] message` (by number or ACI); undefined for a group's, a sync or receipt envelope,
 * and anyone else.
 */
export async function addresseeOf(
  envelope: SignalEnvelope,
  who: { owner: SignalOwner; access?: ChatAccess },
): Promise<Addressee | undefined> {
  if (kindOf(envelope) !== "direct") return undefined;
  if (await who.owner.sent(envelope)) {
    const number = who.owner.number;
    return { thread: `signal:${number}`, recipient: number, source: number };
  }
  const id = [envelope.sourceNumber, envelope.sourceUuid].find((x) => x && who.access?.persons.has(x));
  if (!id) return undefined;
  return { thread: `signal:${id}`, recipient: id, source: id, from: `person:signal:${id}` };
}
