/**
 * The Gateway v10 as Discord runs it, JSON and uncompressed: HELLO on connect, heartbeats ACKed,
 * IDENTIFY making a session (READY, then dispatches with `s` increasing per session), RESUME with
 * `session_id` and `seq` replaying every dispatch after `seq` then RESUMED, INVALID_SESSION for an
 * unknown or ended session, RECONNECT, and Discord's close codes. Dispatches made while a session has
 * no socket wait in the session and are replayed when it resumes.
 */
import type { Clock } from "../../../core/base/mod.ts";
import type {
  FakeDiscordClose,
  FakeDiscordHeartbeat,
  FakeDiscordIdentify,
  FakeDiscordResume,
  FakeDiscordSockets,
} from "./records.ts";

export type {
  FakeDiscordClose,
  FakeDiscordHeartbeat,
  FakeDiscordIdentify,
  FakeDiscordResume,
  FakeDiscordSockets,
};

/** One dispatch (op 0) of a session. */
export interface Dispatch {
  t: string;
  s: number;
  d: unknown;
}

/** What a session sees of a dispatch given its intents: the payload, or undefined when not for it. */
export type DispatchView = (intents: number) => unknown;

/** Close codes after which a session cannot be resumed. */
export const ENDING_CLOSE_CODES: ReadonlySet<number> = new Set([
  4004,
  4007,
  4009,
  4010,
  4011,
  4012,
  4013,
  4014,
]);

interface Session {
  id: string;
  token: string;
  intents: number;
  seq: number;
  events: Dispatch[];
  socket: Socket | undefined;
  live: boolean;
}

interface Socket {
  n: number;
  ws: WebSocket;
  closed: Promise<void>;
  session: Session | undefined;
  acking: boolean;
  ending: "fake" | "network" | undefined;
}

/** What the gateway asks of the rest of the fake. */
export interface GatewayOptions {
  clock: Clock;
  heartbeatIntervalMs: number;
  tokenValid(token: string): boolean;
  resumeUrl(): string;
  /** READY's `d` for a new session, and the dispatches that follow it (GUILD_CREATE). */
  ready(sessionId: string, intents: number): { d: Record<string, unknown>; then: [string, unknown][] };
}

export class Gateway {
  readonly identifies: FakeDiscordIdentify[] = [];
  readonly resumes: FakeDiscordResume[] = [];
  readonly heartbeats: FakeDiscordHeartbeat[] = [];
  readonly closes: FakeDiscordClose[] = [];
  #options: GatewayOptions;
  #sessions = new Map<string, Session>();
  #open: Socket[] = [];
  #ever = 0;
  #mostAtOnce = 0;
  #waiters: { check: () => boolean; resolve: () => void }[] = [];
  #closing = false;

  constructor(options: GatewayOptions) {
    this.#options = options;
  }

  get sockets(): FakeDiscordSockets {
    return { open: this.#open.length, ever: this.#ever, mostAtOnce: this.#mostAtOnce };
  }

  /** Session ids, oldest first, with whether each can still be resumed and its last seq. */
  get sessions(): { session_id: string; live: boolean; seq: number }[] {
    return [...this.#sessions.values()].map((s) => ({ session_id: s.id, live: s.live, seq: s.seq }));
  }

  /** Takes a WebSocket upgrade: 400 for zlib-stream compression or an encoding other than json. */
  upgrade(req: Request): Response {
    const query = new URL(req.url).searchParams;
    if (this.#closing) return new Response("Service Unavailable", { status: 503 });
    if (req.headers.get("upgrade")?.toLowerCase() !== "websocket") {
      return new Response("expected a WebSocket", { status: 400 });
    }
    if (query.has("compress") || (query.get("encoding") ?? "json") !== "json") {
      return new Response("the fake speaks uncompressed JSON only", { status: 400 });
    }
    const { socket: ws, response } = Deno.upgradeWebSocket(req);
    const { promise: closed, resolve } = Promise.withResolvers<void>();
    const socket: Socket = {
      n: ++this.#ever,
      ws,
      closed,
      session: undefined,
      acking: true,
      ending: undefined,
    };
    ws.onopen = () => this.#opened(socket, query.get("v"));
    ws.onmessage = (e) => this.#received(socket, e.data);
    ws.onclose = (e) => {
      this.#ended(socket, e.code);
      resolve();
    };
    ws.onerror = () => {};
    return response;
  }

  /** Dispatches an event to every live session whose intents let it see it. */
  dispatch(t: string, view: DispatchView): void {
    for (const session of this.#sessions.values()) {
      if (!session.live) continue;
      const d = view(session.intents);
      if (d !== undefined) this.#send(session, t, d);
    }
    this.#changed();
  }

  /** Sends op 7 RECONNECT on every open socket; how many. */
  sendReconnect(): number {
    for (const s of this.#open) sendFrame(s.ws, { op: 7, d: null, s: null, t: null });
    return this.#open.length;
  }

  /** Sends op 1, asking for a heartbeat now, on every open socket; how many. */
  requestHeartbeat(): number {
    for (const s of this.#open) sendFrame(s.ws, { op: 1, d: null, s: null, t: null });
    return this.#open.length;
  }

  /** Sends op 9 INVALID_SESSION on every identified socket; a session not `resumable` ends. */
  invalidateSession(resumable: boolean): number {
    const identified = this.#open.filter((s) => s.session);
    for (const socket of identified) {
      const session = socket.session!;
      if (!resumable) session.live = false;
      session.socket = undefined;
      socket.session = undefined;
      sendFrame(socket.ws, { op: 9, d: resumable, s: null, t: null });
    }
    this.#changed();
    return identified.length;
  }

  /** Ends every session, so a RESUME of any gets INVALID_SESSION; the sockets stay open. */
  expireSessions(): void {
    for (const session of this.#sessions.values()) session.live = false;
  }

  /** Heartbeats on the sockets open now get no ACK from now on; how many sockets. */
  stopAcking(): number {
    for (const s of this.#open) s.acking = false;
    return this.#open.length;
  }

  /** Closes the open sockets (those of `token` when given) with `code`; how many. */
  closeSockets(code: number, options: { reason?: string; token?: string } = {}): number {
    const chosen = this.#open.filter((s) =>
      options.token === undefined || s.session?.token === options.token
    );
    for (const s of chosen) this.#close(s, code, options.reason ?? "");
    return chosen.length;
  }

  /** Marks the open sockets as ended by the network, before their connections are cut. */
  markDropped(): number {
    for (const s of this.#open) s.ending = "network";
    return this.#open.length;
  }

  /** Resolves once `check()` holds, checked after each gateway event and dispatch. */
  until(check: () => boolean): Promise<void> {
    if (check()) return Promise.resolve();
    const { promise, resolve } = Promise.withResolvers<void>();
    this.#waiters.push({ check, resolve });
    return promise;
  }

  /** Rechecks the waiters (the fake calls it after REST changes too). */
  changed(): void {
    this.#changed();
  }

  async close(): Promise<void> {
    this.#closing = true;
    const open = [...this.#open];
    for (const s of open) this.#close(s, 1001, "");
    await Promise.all(open.map((s) => s.closed));
  }

  #opened(socket: Socket, version: string | null): void {
    this.#open.push(socket);
    this.#mostAtOnce = Math.max(this.#mostAtOnce, this.#open.length);
    if (version !== null && version !== "10") {
      this.#close(socket, 4012, "Invalid API version");
      return;
    }
    sendFrame(socket.ws, {
      op: 10,
      d: { heartbeat_interval: this.#options.heartbeatIntervalMs },
      s: null,
      t: null,
    });
    this.#changed();
  }

  #ended(socket: Socket, code: number): void {
    this.#open = this.#open.filter((s) => s !== socket);
    const by = socket.ending ?? "client";
    this.closes.push({ socket: socket.n, code, by });
    const session = socket.session;
    if (session && session.socket === socket) {
      session.socket = undefined;
      // A client that closes with 1000 or 1001 ends its session, as Discord does; 4200 and a drop keep it.
      if (by === "client" && (code === 1000 || code === 1001)) session.live = false;
    }
    this.#changed();
  }

  #received(socket: Socket, data: unknown): void {
    let frame: { op?: unknown; d?: unknown };
    try {
      frame = JSON.parse(String(data));
    } catch {
      return this.#close(socket, 4002, "Error while decoding payload.");
    }
    const d = (frame.d ?? {}) as Record<string, unknown>;
    switch (frame.op) {
      case 1:
        return this.#heartbeat(socket, frame.d);
      case 2:
        return this.#identify(socket, d);
      case 6:
        return this.#resume(socket, d);
      case 3:
      case 4:
      case 8:
        if (!socket.session) this.#close(socket, 4003, "Not authenticated.");
        return;
      default:
        return this.#close(socket, 4001, "Unknown opcode.");
    }
  }

  #heartbeat(socket: Socket, d: unknown): void {
    const seq = typeof d === "number" ? d : null;
    this.heartbeats.push({ socket: socket.n, seq, acked: socket.acking, at: this.#options.clock.now() });
    if (socket.acking) sendFrame(socket.ws, { op: 11, d: null, s: null, t: null });
    this.#changed();
  }

  #identify(socket: Socket, d: Record<string, unknown>): void {
    const token = typeof d.token === "string" ? d.token : "";
    const intents = typeof d.intents === "number" && Number.isInteger(d.intents) ? d.intents : undefined;
    const record = {
      socket: socket.n,
      token,
      intents: intents ?? -1,
      session_id: "",
      at: this.#options.clock.now(),
    };
    this.identifies.push(record);
    if (socket.session) return this.#close(socket, 4005, "Already authenticated.");
    if (!this.#options.tokenValid(token.replace(/^Bot\s+/i, ""))) {
      return this.#close(socket, 4004, "Authentication failed.");
    }
    if (intents === undefined || intents < 0 || intents >= 2 ** 26) {
      return this.#close(socket, 4013, "Invalid intent(s).");
    }
    // An older session with no socket is gone once its bot identifies again.
    for (const old of this.#sessions.values()) if (old.token === token && !old.socket) old.live = false;
    const session: Session = {
      id: crypto.randomUUID().replaceAll("-", ""),
      token,
      intents,
      seq: 0,
      events: [],
      socket,
      live: true,
    };
    record.session_id = session.id;
    this.#sessions.set(session.id, session);
    socket.session = session;
    const ready = this.#options.ready(session.id, intents);
    this.#send(session, "READY", ready.d);
    for (const [t, payload] of ready.then) this.#send(session, t, payload);
    this.#changed();
  }

  #resume(socket: Socket, d: Record<string, unknown>): void {
    const id = typeof d.session_id === "string" ? d.session_id : "";
    const seq = typeof d.seq === "number" ? d.seq : 0;
    const record = {
      socket: socket.n,
      session_id: id,
      seq,
      resumed: false,
      replayed: 0,
      at: this.#options.clock.now(),
    };
    this.resumes.push(record);
    if (socket.session) return this.#close(socket, 4005, "Already authenticated.");
    const session = this.#sessions.get(id);
    const token = typeof d.token === "string" ? d.token : "";
    if (!session || !session.live || session.token !== token || !this.#options.tokenValid(token)) {
      sendFrame(socket.ws, { op: 9, d: false, s: null, t: null });
      return this.#changed();
    }
    if (seq > session.seq) return this.#close(socket, 4007, "Invalid seq.");
    const previous = session.socket;
    if (previous) previous.session = undefined;
    session.socket = socket;
    socket.session = session;
    const missed = session.events.filter((e) => e.s > seq);
    for (const e of missed) sendFrame(socket.ws, { op: 0, ...e });
    session.seq++;
    sendFrame(socket.ws, { op: 0, t: "RESUMED", s: session.seq, d: {} });
    record.resumed = true;
    record.replayed = missed.length;
    this.#changed();
  }

  #send(session: Session, t: string, d: unknown): void {
    const dispatch: Dispatch = { t, s: ++session.seq, d: structuredClone(d) };
    session.events.push(dispatch);
    if (session.socket) sendFrame(session.socket.ws, { op: 0, ...dispatch });
  }

  #close(socket: Socket, code: number, reason: string): void {
    socket.ending ??= "fake";
    const session = socket.session;
    if (session && ENDING_CLOSE_CODES.has(code)) session.live = false;
    try {
      socket.ws.close(code, reason);
    } catch {
      // Already closing.
    }
  }

  #changed(): void {
    const ready = this.#waiters.filter((w) => w.check());
    this.#waiters = this.#waiters.filter((w) => !ready.includes(w));
    for (const w of ready) w.resolve();
  }
}

function sendFrame(ws: WebSocket, frame: unknown): void {
  try {
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(frame));
  } catch {
    // A socket closing as we send: a session's dispatch waits in it for a RESUME.
  }
}
