/**
 * A small signal-cli daemon on loopback for the carrier's tests, until the shared fake lands:
 * POST /api/v1/rpc (version, listAccounts, send, sendTyping) and GET /api/v1/events, with each
 * envelope given to the streams open, or held (as Signal's server holds them in on-connection
 * receive mode) until one opens. It can fall silent, restart and replay.
 */
export const ACCOUNT = "+15550000000";

type Call = { method: string; params: Record<string, unknown> };

export class LoopbackDaemon {
  calls: Call[] = [];
  streams = 0;
  #server: Deno.HttpServer<Deno.NetAddr>;
  #port: number;
  #open = new Set<ReadableStreamDefaultController<Uint8Array>>();
  #held: string[] = [];
  #given: string[] = [];
  #muted = new Set<ReadableStreamDefaultController<Uint8Array>>();
  #waiters: { ok: () => boolean; resolve: () => void }[] = [];
  #timestamp = 1700000000000;

  private constructor(port = 0) {
    this.#server = this.#serve(port);
    this.#port = this.#server.addr.port;
  }

  static start(): LoopbackDaemon {
    return new LoopbackDaemon();
  }

  get url(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  /** A direct message from `number`; `extra` joins its dataMessage (or replaces the envelope's parts). */
  says(
    number: string,
    text: string | undefined,
    extra: Record<string, unknown> = {},
  ): Record<string, unknown> {
    const timestamp = this.#timestamp++;
    const { envelope: more, ...data } = extra as { envelope?: Record<string, unknown> };
    const envelope = {
      source: number,
      sourceNumber: number,
      sourceUuid: `uuid-${number.slice(1)}`,
      sourceDevice: 1,
      timestamp,
      dataMessage: { timestamp, message: text ?? null, ...data },
      ...more,
    };
    this.#give(JSON.stringify({ envelope, account: ACCOUNT }));
    return envelope;
  }

  /** The texts sent to `recipient`. */
  sent(recipient: string): string[] {
    return this.calls.filter((c) => c.method === "send" && (c.params.recipient as string[])[0] === recipient)
      .map((c) => c.params.message as string);
  }

  /** The streams open write nothing more, not even keep-alives, and stay open; new ones speak. */
  fallSilent(): void {
    for (const c of this.#open) this.#muted.add(c);
  }

  /** Writes a keep-alive comment on each stream, as signal-cli does every 15 s. */
  keepAlive(): void {
    this.#write(":\n");
  }

  /** Gives the envelopes given so far again. */
  replay(): void {
    for (const data of this.#given) this.#write(`event:receive\ndata:${data}\n\n`);
  }

  /** Stops the daemon: its streams close and nothing answers until `start()`. */
  async stop(): Promise<void> {
    for (const c of this.#open) c.close();
    this.#open.clear();
    await this.#server.shutdown();
  }

  /** Starts it again on the same port. */
  start(): void {
    this.#server = this.#serve(this.#port);
  }

  /** Resolves once `ok` holds, checked at each call and stream the daemon gets. */
  when(ok: () => boolean): Promise<void> {
    if (ok()) return Promise.resolve();
    const { promise, resolve } = Promise.withResolvers<void>();
    this.#waiters.push({ ok, resolve });
    return promise;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop().catch(() => {});
  }

  #give(data: string): void {
    this.#given.push(data);
    if ([...this.#open].every((c) => this.#muted.has(c))) this.#held.push(data);
    else this.#write(`event:receive\ndata:${data}\n\n`);
  }

  #write(text: string): void {
    for (const c of this.#open) if (!this.#muted.has(c)) c.enqueue(new TextEncoder().encode(text));
  }

  #notify(): void {
    this.#waiters = this.#waiters.filter((w) => !w.ok() || (w.resolve(), false));
  }

  #serve(port: number): Deno.HttpServer<Deno.NetAddr> {
    return Deno.serve({ hostname: "127.0.0.1", port, onListen() {} }, async (req) => {
      const path = new URL(req.url).pathname;
      if (path === "/api/v1/events") return this.#stream();
      const body = await req.json() as { id: number; method: string; params?: Record<string, unknown> };
      this.calls.push({ method: body.method, params: body.params ?? {} });
      queueMicrotask(() => this.#notify());
      const result = body.method === "version"
        ? { version: "0.13.0" }
        : body.method === "listAccounts"
        ? [{ number: ACCOUNT }]
        : body.method === "send"
        ? { timestamp: this.#timestamp++ }
        : {};
      return Response.json({ jsonrpc: "2.0", id: body.id, result });
    });
  }

  #stream(): Response {
    let self: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start: (c) => {
        self = c;
        this.#open.add(c);
        this.streams++;
        for (const data of this.#held.splice(0)) {
          c.enqueue(new TextEncoder().encode(`event:receive\ndata:${data}\n\n`));
        }
        queueMicrotask(() => this.#notify());
      },
      cancel: () => void this.#open.delete(self),
    });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  }
}
