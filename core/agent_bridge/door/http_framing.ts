import {
  type BodyFraming,
  headerValues,
  Http1Malformed,
  MessageScanner,
  requestFraming,
  type RequestHead,
  responseFraming,
  type ResponseHead,
} from "../../../http1/mod.ts";

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
  /** True while a request's head has begun and not ended: its bytes are not whole yet. */
  readonly readingHead: boolean;
  /**
   * True once the caller's bytes are no longer read as requests for any reason but a tunnel the
   * agent agreed to (an upgrade or CONNECT answered): what follows cannot be judged (TEAM-7).
   */
  readonly unread: boolean;
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
  /** A request's head has come whole, before any of its body. */
  request?(head: RequestHead): void;
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
  #tunnel = false;
  #inBody = false;
  #requests = new MessageScanner({
    kind: "request",
    head: (head) => this.#requestHead(head),
    done: () => this.#requestDone(),
  });
  #responses = new MessageScanner({
    kind: "response",
    head: (head) => this.#responseHead(head),
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

  get readingHead(): boolean {
    return !this.#opaque && this.#requests.inMessage && !this.#inBody;
  }

  get unread(): boolean {
    return this.#opaque && !this.#tunnel;
  }

  serverEnded(): void {
    this.#serverEnded = true;
  }

  #feed(reader: MessageScanner, bytes: Uint8Array): void {
    if (this.#opaque) return;
    try {
      reader.feed(bytes);
    } catch (err) {
      if (!(err instanceof Http1Malformed)) throw err;
      this.#becomeOpaque();
    }
  }

  #becomeOpaque(): void {
    this.#opaque = true;
    this.#requests.giveUp();
    this.#responses.giveUp();
  }

  #requestHead(head: RequestHead): BodyFraming {
    this.#switchAsked = head.method === "CONNECT" || headerValues(head.headers, "upgrade").length > 0;
    this.#pending.push({ method: head.method, target: head.target, switching: this.#switchAsked });
    const framing = requestFraming(head);
    this.#inBody = true;
    this.#events.request?.(head);
    return framing;
  }

  #requestDone(): void {
    this.#inBody = false;
    if (this.#switchAsked) this.#requests.hold();
  }

  #responseHead(head: ResponseHead): BodyFraming {
    const request = this.#pending[0];
    this.#interim = head.status >= 100 && head.status < 200 && head.status !== 101;
    // Framed first: an answer that cannot be framed is never told as one.
    const framing = responseFraming(head, request?.method ?? "GET");
    if (!this.#interim && request) this.#events.answered?.(head.status, request);
    if (framing.kind === "tunnel") {
      this.#tunnel = true;
      this.#becomeOpaque();
    }
    return framing;
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
