import { parseRequestHead, parseResponseHead, Unframeable } from "./http_head.ts";
import { type BodyFraming, MessageReader } from "./http_message_reader.ts";

/**
 * Watches both directions of one relayed connection and tells whether an answer is still
 * coming (PRC-10, PRC-11, U-36). It reads only how each HTTP/1.1 message is framed, never what
 * it says.
 */
export interface HttpFraming {
  /** Bytes the caller sent toward the agent. */
  fromClient(bytes: Uint8Array): void;
  /** Bytes the agent sent back. */
  fromServer(bytes: Uint8Array): void;
  /** The agent's side ended: a close-delimited answer is complete, and no other can come. */
  serverEnded(): void;
  /**
   * True while an answer is still coming: a request has begun and its response is not complete,
   * or the connection became a tunnel, an upgrade, or unframeable (until it closes). An idle
   * keep-alive connection between answers is not busy.
   */
  readonly busy: boolean;
  /**
   * True while the agent owes an answer: every request that came is whole and some answer has not
   * ended. The door's deadline for an unproven caller runs only while it is not: the caller's time.
   */
  readonly owed: boolean;
}

/** A request as its framing shows it. */
export interface FramedRequest {
  method: string;
  /** Its target as its start line gives it: `/acp`, `/_link/proof?x`. */
  target: string;
}

/** What a tracker tells as the messages pass. */
export interface FramingEvents {
  /** A final answer's head has come (never a 1xx): its status, and the request it answers. */
  answered?(status: number, request: FramedRequest): void;
}

interface Pending extends FramedRequest {
  switching: boolean;
}

/** Starts watching one connection's framing. */
export function trackHttpFraming(events: FramingEvents = {}): HttpFraming {
  return new FramingTracker(events);
}

class FramingTracker implements HttpFraming {
  #events: FramingEvents;
  #pending: Pending[] = [];
  #opaque = false;
  #serverEnded = false;
  #interim = false;
  #switchAsked = false;
  #requests = new MessageReader("request", {
    head: (lines) => this.#requestHead(lines),
    done: () => this.#requestDone(),
  });
  #responses = new MessageReader("response", {
    head: (lines) => this.#responseHead(lines),
    done: () => this.#responseDone(),
  });

  constructor(events: FramingEvents) {
    this.#events = events;
  }

  get owed(): boolean {
    if (this.#opaque || this.#serverEnded) return false;
    return this.#pending.length > 0 && !this.#requests.inMessage;
  }

  get busy(): boolean {
    if (this.#opaque) return true;
    if (this.#serverEnded) return false;
    return this.#pending.length > 0 || this.#requests.inMessage || this.#responses.inMessage;
  }

  fromClient(bytes: Uint8Array): void {
    this.#feed(this.#requests, bytes);
  }

  fromServer(bytes: Uint8Array): void {
    this.#feed(this.#responses, bytes);
  }

  serverEnded(): void {
    this.#serverEnded = true;
  }

  #feed(reader: MessageReader, bytes: Uint8Array): void {
    if (this.#opaque) return;
    try {
      reader.feed(bytes);
    } catch (err) {
      if (!(err instanceof Unframeable)) throw err;
      this.#becomeOpaque();
    }
  }

  #becomeOpaque(): void {
    this.#opaque = true;
    this.#requests.giveUp();
    this.#responses.giveUp();
  }

  #requestHead(lines: string[]): BodyFraming {
    const head = parseRequestHead(lines);
    const method = head.method ?? "GET";
    this.#switchAsked = method === "CONNECT" || head.upgrade;
    this.#pending.push({ method, target: head.target ?? "", switching: this.#switchAsked });
    if (head.encoded && !head.chunked) throw new Unframeable("request body of unknown length");
    if (method === "CONNECT") return { kind: "none" };
    if (head.chunked) return { kind: "chunked" };
    return head.contentLength ? { kind: "length", length: head.contentLength } : { kind: "none" };
  }

  #requestDone(): void {
    if (this.#switchAsked) this.#requests.hold();
  }

  #responseHead(lines: string[]): BodyFraming {
    const head = parseResponseHead(lines);
    const status = head.status ?? 0;
    const request = this.#pending[0];
    this.#interim = status >= 100 && status < 200 && status !== 101;
    if (!this.#interim && request) this.#events.answered?.(status, request);
    if (status === 101 || (request?.method === "CONNECT" && status >= 200 && status < 300)) {
      this.#becomeOpaque();
      return { kind: "opaque" };
    }
    if (this.#interim || request?.method === "HEAD" || status === 204 || status === 304) {
      return { kind: "none" };
    }
    if (head.encoded) return head.chunked ? { kind: "chunked" } : { kind: "until-close" };
    if (head.contentLength !== undefined) return { kind: "length", length: head.contentLength };
    return { kind: "until-close" };
  }

  #responseDone(): void {
    if (this.#interim) {
      this.#interim = false;
      return;
    }
    const answered = this.#pending.shift();
    if (answered?.switching) {
      this.#switchAsked = false;
      this.#requests.resume();
    }
  }
}
