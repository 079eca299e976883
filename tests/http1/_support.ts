/**
 * What the HTTP/1.1 grammar's tests share: wire bytes split any way, and a message read both ways
 * the module reads one (pulled from a connection, and fed as bytes pass), so each test holds both
 * to the same grammar.
 */
import {
  type BodyFraming,
  type ByteSource,
  ConnReader,
  latin1,
  latin1Text,
  MessageScanner,
  readBody,
  readRequestHead,
  readResponseHead,
  requestFraming,
  type RequestHead,
  responseFraming,
  type ResponseHead,
} from "../../http1/mod.ts";

/** Wire text as bytes, a byte per character, so "\xe9" is the one byte 0xE9. */
export const wire = latin1;

/** A source handing out `parts`, one a read (split further when a read asks for less), then the end. */
export function pieces(parts: readonly Uint8Array[]): ByteSource & { readonly reads: number } {
  const queue = parts.filter((p) => p.length > 0).map((p) => p.slice());
  let reads = 0;
  return {
    get reads() {
      return reads;
    },
    read(buffer) {
      reads++;
      const next = queue.shift();
      if (!next) return Promise.resolve(null);
      if (next.length > buffer.length) queue.unshift(next.subarray(buffer.length));
      buffer.set(next.subarray(0, buffer.length));
      return Promise.resolve(Math.min(next.length, buffer.length));
    },
  };
}

/** The ways the tests split bytes: whole, byte by byte (when short), and in two at every offset (when shorter). */
export function splits(bytes: Uint8Array): Uint8Array[][] {
  const ways = [[bytes]];
  if (bytes.length <= 4096) ways.push([...bytes].map((b) => Uint8Array.of(b)));
  if (bytes.length <= 400) {
    for (let cut = 1; cut < bytes.length; cut++) ways.push([bytes.subarray(0, cut), bytes.subarray(cut)]);
  }
  return ways;
}

/** A message as read: its head, and its body as latin1 text. */
export interface Message {
  head: RequestHead | ResponseHead;
  body: string;
}

/** The framing of a head, as a user of the module finds it (a response answers `method`). */
function framingOf(head: RequestHead | ResponseHead, method: string): BodyFraming {
  return "method" in head ? requestFraming(head) : responseFraming(head, method);
}

/** Reads messages of one kind from a connection until it ends (or a tunnel begins). */
export async function pullMessages(
  kind: "request" | "response",
  parts: readonly Uint8Array[],
  method = "GET",
): Promise<Message[]> {
  const reader = new ConnReader(pieces(parts));
  const messages: Message[] = [];
  for (;;) {
    const head = kind === "request" ? await readRequestHead(reader) : await readResponseHead(reader);
    if (!head) return messages;
    const framing = framingOf(head, method);
    let body = "";
    if (framing.kind !== "tunnel") {
      for await (const piece of readBody(reader, framing)) body += latin1Text(piece);
    }
    messages.push({ head, body });
    if (framing.kind === "tunnel" || framing.kind === "close") return messages;
  }
}

/** Feeds bytes to a MessageScanner as they pass: the heads it read, how many messages ended, whether one is under way. */
export function pushMessages(
  kind: "request" | "response",
  parts: readonly Uint8Array[],
  method = "GET",
): { heads: (RequestHead | ResponseHead)[]; done: number; inMessage: boolean } {
  const heads: (RequestHead | ResponseHead)[] = [];
  let done = 0;
  const head = (h: RequestHead | ResponseHead) => (heads.push(h), framingOf(h, method));
  const scanner = kind === "request"
    ? new MessageScanner({ kind, head, done: () => done++ })
    : new MessageScanner({ kind, head, done: () => done++ });
  for (const part of parts) scanner.feed(part);
  return { heads, done, inMessage: scanner.inMessage };
}
