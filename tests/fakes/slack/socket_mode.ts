/**
 * Socket Mode as Slack runs it: a `ws://…/link/?ticket=…` url from apps.connections.open, good for one
 * connection; a `hello` frame on connect; each event an `events_api` envelope the app must ack with
 * `{"envelope_id"}` within 3 s (by the fake's clock), else sent again with `retry_attempt` + 1 and
 * `retry_reason` "timeout", up to 3 times, on the same or the next connection; `disconnect` frames.
 */
import type { Clock } from "../../../core/base/mod.ts";
import { APP_ID } from "./workspace.ts";

/** An envelope as Slack frames an event. */
export interface SlackEnvelope {
  envelope_id: string;
  type: "events_api";
  accepts_response_payload: false;
  retry_attempt: number;
  retry_reason: string;
  payload: Record<string, unknown>;
}

/** One ack the app sent. */
export interface FakeSlackAck {
  envelope_id: string;
  payload?: unknown;
  /** By the fake's clock. */
  at: number;
  /** Which socket (1 for the first ever). */
  socket: number;
}

/** The sockets: open now, ever opened, and the most open at once. */
export interface FakeSlackSockets {
  open: number;
  ever: number;
  mostAtOnce: number;
}

/** Why Slack asks the app to go: `warning` (soon), `refresh_requested` (now), `link_disabled`. */
export type DisconnectReason = "warning" | "refresh_requested" | "link_disabled";

/** How long Slack waits for an ack before sending an envelope again, and how many times it does. */
export const ACK_TIMEOUT_MS = 3_000;
export const MAX_RETRIES = 3;

interface Socket {
  n: number;
  ws: WebSocket;
  closed: Promise<void>;
}

interface Delivery {
  envelope: SlackEnvelope;
  acked: boolean;
  timer: AbortController | undefined;
}

/** The app's Socket Mode connections and the envelopes in flight on them. */
export class SocketHub {
  /** Every ack, oldest first. */
  readonly acks: FakeSlackAck[] = [];
  /** Envelopes given up after their last retry went unacked. */
  readonly givenUp: SlackEnvelope[] = [];
  #clock: Clock;
  #tickets = new Set<string>();
  #open: Socket[] = [];
  #ever = 0;
  #mostAtOnce = 0;
  #deliveries = new Map<string, Delivery>();
  #waiting: Delivery[] = [];
  #waiters: { check: () => boolean; resolve: () => void }[] = [];
  #closing = false;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  get sockets(): FakeSlackSockets {
    return { open: this.#open.length, ever: this.#ever, mostAtOnce: this.#mostAtOnce };
  }

  /** A one-use ticket for a connection's url. */
  issueTicket(): string {
    const ticket = crypto.randomUUID();
    this.#tickets.add(ticket);
    return ticket;
  }

  /** Takes a WebSocket upgrade at `/link/?ticket=…`: 401 for a ticket unknown or used. */
  upgrade(req: Request): Response {
    const ticket = new URL(req.url).searchParams.get("ticket") ?? "";
    if (!this.#tickets.delete(ticket) || this.#closing) {
      return new Response("invalid ticket", { status: 401 });
    }
    if (req.headers.get("upgrade")?.toLowerCase() !== "websocket") {
      return new Response("expected a WebSocket", { status: 400 });
    }
    const { socket: ws, response } = Deno.upgradeWebSocket(req);
    const { promise: closed, resolve } = Promise.withResolvers<void>();
    const socket: Socket = { n: ++this.#ever, ws, closed };
    ws.onopen = () => this.#opened(socket);
    ws.onmessage = (e) => this.#received(socket, e.data);
    ws.onclose = () => {
      this.#open = this.#open.filter((s) => s !== socket);
      resolve();
      this.#check();
    };
    ws.onerror = () => {};
    return response;
  }

  /** Sends an event's payload as a new envelope (to the newest socket, or the next one to open). */
  deliver(payload: Record<string, unknown>): SlackEnvelope {
    const envelope: SlackEnvelope = {
      envelope_id: crypto.randomUUID(),
      type: "events_api",
      accepts_response_payload: false,
      retry_attempt: 0,
      retry_reason: "",
      payload,
    };
    const delivery: Delivery = { envelope, acked: false, timer: undefined };
    this.#deliveries.set(envelope.envelope_id, delivery);
    this.#send(delivery);
    return envelope;
  }

  /** Whether every envelope delivered so far has been acked. */
  allAcked(): boolean {
    return [...this.#deliveries.values()].every((d) => d.acked);
  }

  /** Whether an envelope has been acked. */
  acked(envelopeId: string): boolean {
    return this.#deliveries.get(envelopeId)?.acked ?? false;
  }

  /** Sends a `disconnect` frame on every open socket, then closes them. */
  sendDisconnect(reason: DisconnectReason): number {
    const open = [...this.#open];
    for (const s of open) {
      sendQuietly(s.ws, { type: "disconnect", reason, debug_info: { host: "applink-fake-1" } });
      closeQuietly(s.ws, 1000);
    }
    return open.length;
  }

  /** Closes every open socket with no disconnect frame, as a network drop looks to the app. */
  dropSockets(): number {
    const open = [...this.#open];
    for (const s of open) closeQuietly(s.ws, 1001);
    return open.length;
  }

  /** Resolves once `check()` holds, checked after each socket and ack event. */
  until(check: () => boolean): Promise<void> {
    if (check()) return Promise.resolve();
    const { promise, resolve } = Promise.withResolvers<void>();
    this.#waiters.push({ check, resolve });
    return promise;
  }

  async close(): Promise<void> {
    this.#closing = true;
    for (const d of this.#deliveries.values()) d.timer?.abort();
    const open = [...this.#open];
    for (const s of open) closeQuietly(s.ws, 1001);
    await Promise.all(open.map((s) => s.closed));
  }

  #opened(socket: Socket): void {
    this.#open.push(socket);
    this.#mostAtOnce = Math.max(this.#mostAtOnce, this.#open.length);
    sendQuietly(socket.ws, {
      type: "hello",
      num_connections: this.#open.length,
      debug_info: { host: "applink-fake-1", build_number: 1, approximate_connection_time: 18060 },
      connection_info: { app_id: APP_ID },
    });
    const waiting = this.#waiting.splice(0);
    for (const d of waiting) this.#send(d);
    this.#check();
  }

  #received(socket: Socket, data: unknown): void {
    if (typeof data !== "string") return;
    let frame: { envelope_id?: unknown; payload?: unknown };
    try {
      frame = JSON.parse(data);
    } catch {
      return;
    }
    if (typeof frame.envelope_id !== "string") return;
    const ack: FakeSlackAck = { envelope_id: frame.envelope_id, at: this.#clock.now(), socket: socket.n };
    if (frame.payload !== undefined) ack.payload = frame.payload;
    this.acks.push(ack);
    const delivery = this.#deliveries.get(frame.envelope_id);
    if (delivery && !delivery.acked) {
      delivery.acked = true;
      delivery.timer?.abort();
      delivery.timer = undefined;
    }
    this.#check();
  }

  #send(delivery: Delivery): void {
    const socket = this.#open.at(-1);
    if (!socket || this.#closing) {
      this.#waiting.push(delivery);
      return;
    }
    sendQuietly(socket.ws, delivery.envelope);
    const timer = new AbortController();
    delivery.timer = timer;
    this.#clock.sleep(ACK_TIMEOUT_MS, timer.signal).then(() => this.#timedOut(delivery), () => {});
  }

  #timedOut(delivery: Delivery): void {
    delivery.timer = undefined;
    if (delivery.acked || this.#closing) return;
    if (delivery.envelope.retry_attempt >= MAX_RETRIES) {
      this.givenUp.push(structuredClone(delivery.envelope));
      this.#check();
      return;
    }
    delivery.envelope = {
      ...delivery.envelope,
      retry_attempt: delivery.envelope.retry_attempt + 1,
      retry_reason: "timeout",
    };
    this.#send(delivery);
  }

  #check(): void {
    const ready = this.#waiters.filter((w) => w.check());
    this.#waiters = this.#waiters.filter((w) => !ready.includes(w));
    for (const w of ready) w.resolve();
  }
}

function sendQuietly(ws: WebSocket, frame: unknown): void {
  try {
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(frame));
  } catch {
    // A socket closing as we send: the envelope waits for its retry.
  }
}

function closeQuietly(ws: WebSocket, code: number): void {
  try {
    ws.close(code);
  } catch {
    // Already closing.
  }
}
