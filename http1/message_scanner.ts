import type { BodyFraming } from "./body_framing.ts";
import { ChunkedDecoder } from "./chunked_decoder.ts";
import { parseRequestHead, parseResponseHead, type RequestHead, type ResponseHead } from "./head.ts";
import { HeadScanner } from "./head_scanner.ts";
import { Http1Malformed } from "./http1_malformed.ts";

/** What a scanner asks and tells of the messages of one direction. */
export type MessageEvents =
  | { readonly kind: "request"; head(head: RequestHead): BodyFraming; done(): void }
  | { readonly kind: "response"; head(head: ResponseHead): BodyFraming; done(): void };

type State = "head" | "length" | "chunked" | "close" | "tunnel" | "hold";

/**
 * Follows the messages of one direction of an HTTP/1.1 connection from bytes fed as they pass,
 * through their framing only: heads, then bodies passed over by length, by chunks, or until the
 * connection closes. It copies nothing of a body and never waits: what reads bytes for another
 * (the door's relay) feeds them and goes on.
 */
export class MessageScanner {
  #events: MessageEvents;
  #state: State = "head";
  #head: HeadScanner;
  #chunks = new ChunkedDecoder();
  #left = 0;

  constructor(events: MessageEvents) {
    this.#events = events;
    this.#head = new HeadScanner(events.kind);
  }

  /** True while part of a message has come and its end has not. */
  get inMessage(): boolean {
    if (this.#state === "head") return this.#head.started;
    return this.#state !== "hold";
  }

  /** Reads nothing more until `resume()`: an upgrade or CONNECT awaits its answer. */
  hold(): void {
    if (this.#state === "head") this.#state = "hold";
  }

  /** Goes on reading messages after a hold. */
  resume(): void {
    if (this.#state === "hold") this.#state = "head";
  }

  /** Stops reading: the rest is a tunnel's, or cannot be framed. */
  giveUp(): void {
    this.#state = "tunnel";
  }

  /** Feeds bytes; throws Http1Malformed when they are not HTTP/1.1. */
  feed(bytes: Uint8Array): void {
    let at = 0;
    while (at < bytes.length) {
      if (this.#state === "tunnel" || this.#state === "close") return;
      if (this.#state === "hold") throw new Http1Malformed("bytes came before the answer to an upgrade");
      at = this.#step(bytes, at);
    }
  }

  #step(bytes: Uint8Array, at: number): number {
    if (this.#state === "head") {
      const { lines, next } = this.#head.scan(bytes, at);
      if (lines) this.#begin(this.#framing(lines));
      return next;
    }
    if (this.#state === "length") {
      const take = Math.min(this.#left, bytes.length - at);
      this.#left -= take;
      if (this.#left === 0) this.#finish();
      return at + take;
    }
    const { next } = this.#chunks.decode(bytes, at);
    if (this.#chunks.done) this.#finish();
    return next;
  }

  #framing(lines: string[]): BodyFraming {
    const events = this.#events;
    return events.kind === "request"
      ? events.head(parseRequestHead(lines))
      : events.head(parseResponseHead(lines));
  }

  #begin(body: BodyFraming): void {
    if (body.kind === "none" || (body.kind === "length" && body.length === 0)) return this.#finish();
    if (body.kind === "length") this.#left = body.length;
    if (body.kind === "chunked") this.#chunks = new ChunkedDecoder();
    this.#state = body.kind;
  }

  #finish(): void {
    this.#state = "head";
    this.#events.done();
  }
}
