import { HeadCollector, LineScanner, startsRequest, startsResponse, Unframeable } from "./http_head.ts";

/** How the body after a head is framed. */
export type BodyFraming =
  | { kind: "none" }
  | { kind: "length"; length: number }
  | { kind: "chunked" }
  | { kind: "until-close" }
  /** A tunnel or a switched protocol: nothing more is framed. */
  | { kind: "opaque" };

type State =
  | "head"
  | "length"
  | "chunk-size"
  | "chunk-data"
  | "chunk-end"
  | "trailers"
  | "until-close"
  | "opaque"
  | "hold";

/** What a reader asks of its tracker. */
export interface MessageEvents {
  /** A head has come: how is its body framed? */
  head(lines: string[]): BodyFraming;
  /** The message's body is complete. */
  done(): void;
}

/**
 * Follows the messages of one direction of an HTTP/1.1 connection through their framing only
 * (PRC-11): heads, then bodies skipped by length, by chunk sizes, or until close.
 */
export class MessageReader {
  #events: MessageEvents;
  #state: State = "head";
  #head: HeadCollector;
  #line = new LineScanner(4096);
  #remaining = 0;

  constructor(role: "request" | "response", events: MessageEvents) {
    this.#events = events;
    this.#head = new HeadCollector(role === "request" ? startsRequest : startsResponse);
  }

  /** True while part of a message has come and its end has not. */
  get inMessage(): boolean {
    if (this.#state === "head") return this.#head.started;
    return this.#state !== "hold";
  }

  /** True once the bytes can no longer be framed (a tunnel, an unframeable message). */
  get opaque(): boolean {
    return this.#state === "opaque";
  }

  /** True while held until the tracker decides (an upgrade or CONNECT awaiting its answer). */
  get holding(): boolean {
    return this.#state === "hold";
  }

  /** Reads nothing more until `resume()`: an upgrade or CONNECT awaits its answer. */
  hold(): void {
    if (this.#state === "head") this.#state = "hold";
  }

  /** Goes on framing messages after a hold. */
  resume(): void {
    if (this.#state === "hold") this.#state = "head";
  }

  /** Stops framing: the rest is opaque. */
  giveUp(): void {
    this.#state = "opaque";
  }

  /** Feeds bytes; throws Unframeable when they cannot be framed. */
  feed(bytes: Uint8Array): void {
    let at = 0;
    while (at < bytes.length) {
      if (this.#state === "opaque" || this.#state === "until-close") return;
      if (this.#state === "hold") throw new Unframeable("bytes before the answer to an upgrade");
      at = this.#step(bytes, at);
    }
  }

  #step(bytes: Uint8Array, at: number): number {
    switch (this.#state) {
      case "head": {
        const { lines, next } = this.#head.scan(bytes, at);
        if (lines) this.#begin(this.#events.head(lines));
        return next;
      }
      case "length":
      case "chunk-data": {
        const take = Math.min(this.#remaining, bytes.length - at);
        this.#remaining -= take;
        if (this.#remaining === 0) {
          if (this.#state === "length") this.#finish();
          else this.#state = "chunk-end";
        }
        return at + take;
      }
      default:
        return this.#lineStep(bytes, at);
    }
  }

  #lineStep(bytes: Uint8Array, at: number): number {
    const { line, next } = this.#line.scan(bytes, at);
    if (line === undefined) return next;
    if (this.#state === "chunk-size") {
      const size = /^([0-9a-fA-F]{1,13})[ \t]*(?:;.*)?$/.exec(line);
      if (!size) throw new Unframeable("not a chunk size");
      this.#remaining = parseInt(size[1]!, 16);
      this.#state = this.#remaining === 0 ? "trailers" : "chunk-data";
    } else if (this.#state === "chunk-end") {
      if (line !== "") throw new Unframeable("chunk not ended by CR LF");
      this.#state = "chunk-size";
    } else if (line === "") {
      this.#finish();
    }
    return next;
  }

  #begin(body: BodyFraming): void {
    switch (body.kind) {
      case "none":
        return this.#finish();
      case "length":
        this.#remaining = body.length;
        if (body.length === 0) return this.#finish();
        this.#state = "length";
        return;
      case "chunked":
        this.#state = "chunk-size";
        return;
      default:
        this.#state = body.kind;
    }
  }

  #finish(): void {
    this.#state = "head";
    this.#events.done();
  }
}
