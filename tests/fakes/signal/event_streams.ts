/**
 * `GET /api/v1/events` as signal-cli 0.14.6 serves it (`HttpServerHandler`, `ServerSentEventSender`):
 * `200` with `Content-Type: text/event-stream`, headers flushed at once, each envelope one event
 * `event:receive` / `data:<JSON of {envelope, account}>` with no `id:` line, and a keep-alive comment
 * `:` (one line, `":\n"`) every 15 s while the stream is open. A stream can be silenced (it stays
 * open and says nothing more, keep-alives included) or ended (as signal-cli ends each stream's body
 * when it shuts down).
 */
import type { Clock } from "../../../core/base/mod.ts";
import type { SignalReceived } from "./envelopes.ts";

/** signal-cli waits this long between keep-alive comments on an event stream. */
export const KEEP_ALIVE_MS = 15_000;

/** Event streams open now, ever opened, and silenced (open, saying nothing) now. */
export interface FakeSignalStreams {
  open: number;
  ever: number;
  silenced: number;
}

interface EventStream {
  /** The account whose events it carries, or undefined for every account. */
  account: string | undefined;
  controller: ReadableStreamDefaultController<Uint8Array>;
  stop: AbortController;
  silenced: boolean;
}

const ENCODER = new TextEncoder();

/** The open event streams of one fake daemon. */
export class EventStreams {
  #clock: Clock;
  #streams = new Set<EventStream>();
  #ever = 0;
  #watchers: { check: () => boolean; resolve: () => void }[] = [];

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  get counts(): FakeSignalStreams {
    const silenced = [...this.#streams].filter((s) => s.silenced).length;
    return { open: this.#streams.size, ever: this.#ever, silenced };
  }

  /** Whether some open stream that is not silenced carries `account`'s events. */
  hasLive(account: string): boolean {
    return [...this.#streams].some((s) => !s.silenced && (s.account ?? account) === account);
  }

  /** Opens a stream for `account` (undefined: every account); its response. */
  open(account: string | undefined, signal: AbortSignal): Response {
    let stream!: EventStream;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        stream = { account, controller, stop: new AbortController(), silenced: false };
      },
      cancel: () => this.#remove(stream),
    });
    this.#streams.add(stream);
    this.#ever++;
    signal.addEventListener("abort", () => this.#remove(stream), { once: true });
    this.#keepAlive(stream);
    this.#changed();
    return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
  }

  /** Writes `received` on every live stream that carries its account; how many got it. */
  send(received: SignalReceived): number {
    const frame = ENCODER.encode(`event:receive\ndata:${JSON.stringify(received)}\n\n`);
    let sent = 0;
    for (const stream of this.#streams) {
      if (stream.silenced || (stream.account ?? received.account) !== received.account) continue;
      if (this.#write(stream, frame)) sent++;
    }
    return sent;
  }

  /** Silences every open stream: open still, nothing more on it, not even keep-alives. */
  silenceAll(): number {
    const live = [...this.#streams].filter((s) => !s.silenced);
    for (const stream of live) {
      stream.silenced = true;
      stream.stop.abort();
    }
    this.#changed();
    return live.length;
  }

  /** Ends every open stream's body, as signal-cli's shutdown does; how many. */
  endAll(): number {
    const all = [...this.#streams];
    for (const stream of all) {
      try {
        stream.controller.close();
      } catch {
        // Already closed by its client.
      }
      this.#remove(stream);
    }
    return all.length;
  }

  /** Resolves once `check` holds, checked whenever a stream opens, closes or is silenced. */
  until(check: () => boolean): Promise<void> {
    if (check()) return Promise.resolve();
    const { promise, resolve } = Promise.withResolvers<void>();
    this.#watchers.push({ check, resolve });
    return promise;
  }

  async #keepAlive(stream: EventStream): Promise<void> {
    const comment = ENCODER.encode(":\n");
    try {
      for (;;) {
        await this.#clock.sleep(KEEP_ALIVE_MS, stream.stop.signal);
        if (!this.#write(stream, comment)) return;
      }
    } catch {
      // Stopped: the stream closed or was silenced.
    }
  }

  #write(stream: EventStream, bytes: Uint8Array): boolean {
    try {
      stream.controller.enqueue(bytes);
      return true;
    } catch {
      this.#remove(stream);
      return false;
    }
  }

  #remove(stream: EventStream): void {
    if (!this.#streams.delete(stream)) return;
    stream.stop.abort();
    this.#changed();
  }

  #changed(): void {
    for (const watcher of [...this.#watchers]) {
      if (!watcher.check()) continue;
      this.#watchers.splice(this.#watchers.indexOf(watcher), 1);
      watcher.resolve();
    }
  }
}
