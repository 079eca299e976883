/**
 * A fake signal-cli daemon on 127.0.0.1, faithful to `signal-cli -a <number> daemon --http
 * 127.0.0.1:<port>` of signal-cli 0.14.6 (HTTP mode, single-account unless `multiAccount`; read from
 * its `HttpServerHandler`, `ServerSentEventSender`, `JsonRpcReader`, `SignalJsonRpcCommandHandler`,
 * the commands and `JsonMessageEnvelope`, and its man page signal-cli-jsonrpc(5)):
 * - `POST /api/v1/rpc`: JSON-RPC 2.0, one request or a batch (`signal/json_rpc.ts`, `signal/methods.ts`);
 *   415 unless `Content-Type: application/json`, 405 for another verb, 421 for a foreign Host.
 * - `GET /api/v1/events`: Server-Sent Events, each envelope `event:receive` with `data:` the JSON of
 *   `{"envelope":{…},"account":"+…"}` (the notification's params alone, not a JSON-RPC message) and no
 *   `id:`; a `:` keep-alive line every 15 s (`signal/event_streams.ts`). `?account=` in multi-account mode.
 * - `GET /api/v1/check`: 200.
 *
 * When envelopes reach a client: signal-cli's default `--receive-mode=on-start` receives from Signal
 * from the start and hands each envelope to the streams open at that moment, so one that arrives while
 * no stream is open is lost to HTTP clients (printed on the daemon's stdout); `on-connection` receives
 * only while a stream is open, so Signal's server keeps them until one opens. The fake does the second
 * unless told `receiveMode: "on-start"` (then such envelopes land in `lost`). While the daemon is down
 * Signal's server keeps them either way. (Newer signal-cli, after 0.14.6, adds `id:` lines and
 * `Last-Event-ID`; this fake follows the release.)
 *
 * A test makes people and groups, has them speak, reads what the client did (calls, messages sent,
 * typing, streams), waits for a call, and injects faults: a silenced stream, a restart, a replay.
 */
import { type Clock, SYSTEM_CLOCK } from "../../core/base/mod.ts";
import {
  dataMessage,
  deleteEnvelope,
  editEnvelope,
  envelopeFrom,
  groupInfo,
  receiptEnvelope,
  type SignalAttachment,
  type SignalDataMessage,
  type SignalEnvelope,
  type SignalGroup,
  type SignalPerson,
  type SignalReceived,
  syncSentEnvelope,
  typingEnvelope,
} from "./signal/envelopes.ts";
import { empty, hostAllowed } from "./signal/http_checks.ts";
import { DaemonState } from "./signal/daemon_state.ts";
import { EventStreams, type FakeSignalStreams, KEEP_ALIVE_MS } from "./signal/event_streams.ts";
import type { JsonRpcRequest } from "./signal/json_rpc.ts";
import { SIGNAL_CLI_VERSION, type SignalSent } from "./signal/methods.ts";
import { answerRpc, DEREGISTERED, type FakeSignalCall, type FakeSignalFault } from "./signal/rpc_endpoint.ts";

export { DEREGISTERED, KEEP_ALIVE_MS, SIGNAL_CLI_VERSION };
export * from "./signal/json_rpc.ts";
export type {
  FakeSignalCall,
  FakeSignalFault,
  FakeSignalStreams,
  SignalAttachment,
  SignalDataMessage,
  SignalEnvelope,
  SignalGroup,
  SignalPerson,
  SignalReceived,
  SignalSent,
};

/** How a fake signal-cli starts. */
export interface FakeSignalOptions {
  clock?: Clock;
  /** The account's number; `+15550000001` unless told. */
  account?: string;
  /** Started without `-a`: requests may carry `account`, `listAccounts` answers. */
  multiAccount?: boolean;
  /** With `multiAccount`, more numbers listAccounts lists; requests naming them are refused all the same. */
  otherAccounts?: string[];
  /** `on-connection` unless told; see the top of this file. */
  receiveMode?: "on-start" | "on-connection";
}

interface Waiter {
  method: string;
  predicate: (call: FakeSignalCall) => boolean;
  resolve(call: FakeSignalCall): void;
}

/** A running fake signal-cli daemon; `await using signal = await serveFakeSignal()`. */
export class FakeSignal implements AsyncDisposable {
  /** Every JSON-RPC request so far, oldest first, faults included. */
  readonly calls: FakeSignalCall[] = [];
  /** Envelopes lost to the client (`on-start` mode, no stream open when they arrived). */
  readonly lost: SignalEnvelope[] = [];
  #clock: Clock;
  #state: DaemonState;
  #mode: "on-start" | "on-connection";
  #port = 0;
  #server: Deno.HttpServer<Deno.NetAddr> | undefined;
  #streams: EventStreams;
  /** Kept by Signal's server: not yet handed to a stream. */
  #pending: SignalEnvelope[] = [];
  /** Handed to a stream since the daemon last started. */
  #delivered: SignalEnvelope[] = [];
  #faults = new Map<string, FakeSignalFault[]>();
  #always = new Map<string, FakeSignalFault>();
  #returned = new Set<FakeSignalCall>();
  #waiters: Waiter[] = [];

  constructor(options: FakeSignalOptions = {}) {
    this.#clock = options.clock ?? SYSTEM_CLOCK;
    this.#mode = options.receiveMode ?? "on-connection";
    this.#state = new DaemonState(this.#clock, {
      account: options.account ?? "+15550000001",
      multiAccount: options.multiAccount ?? false,
      otherAccounts: options.otherAccounts,
    });
    this.#streams = new EventStreams(this.#clock);
    this.#listen();
  }

  /** The daemon's address, `http://127.0.0.1:<port>` (the API is under `/api/v1/`). */
  get url(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  /** The agent's own number, the daemon's account. */
  get account(): string {
    return this.#state.self().number;
  }

  /** The account as a person (its number and uuid). */
  get self(): SignalPerson {
    return { ...this.#state.self() };
  }

  /** A new person with a Signal account, named `name`: a number and a uuid. */
  person(name: string): SignalPerson {
    return { ...this.#state.addPerson(name) };
  }

  /** A group named `name` with `members` and the account. */
  group(name: string, members: SignalPerson[]): SignalGroup {
    return structuredClone(this.#state.addGroup(name, members));
  }

  /** `person` sends `text` to the account, `extra` in its dataMessage (attachments, sticker, quote). */
  personSays(
    person: SignalPerson,
    text: string | null,
    extra: Partial<SignalDataMessage> = {},
  ): SignalEnvelope {
    const timestamp = this.nextTimestamp();
    return this.sendEnvelope(
      envelopeFrom(person, timestamp, { dataMessage: dataMessage(timestamp, text, extra) }),
    );
  }

  /** `person` says `text` in `group`. */
  inGroup(
    group: SignalGroup,
    person: SignalPerson,
    text: string | null,
    extra: Partial<SignalDataMessage> = {},
  ): SignalEnvelope {
    return this.personSays(person, text, { groupInfo: groupInfo(group), ...extra });
  }

  /** `person` edits their message `original` (an envelope they sent) to read `text`. */
  personEdits(person: SignalPerson, original: SignalEnvelope, text: string): SignalEnvelope {
    return this.sendEnvelope(editEnvelope(person, this.nextTimestamp(), original, text));
  }

  /** `person` deletes their message `original` for everyone. */
  personDeletes(person: SignalPerson, original: SignalEnvelope): SignalEnvelope {
    return this.sendEnvelope(deleteEnvelope(person, this.nextTimestamp(), original));
  }

  /** `person` starts or stops typing (in `group`, if given). */
  personTypes(person: SignalPerson, action: "STARTED" | "STOPPED", group?: SignalGroup): SignalEnvelope {
    return this.sendEnvelope(typingEnvelope(person, this.nextTimestamp(), action, group));
  }

  /** `person`'s device says it got (or read, or viewed) the account's messages sent at `timestamps`. */
  personReceipt(
    person: SignalPerson,
    timestamps: number[],
    type: "delivery" | "read" | "viewed" = "delivery",
  ): SignalEnvelope {
    return this.sendEnvelope(receiptEnvelope(person, this.nextTimestamp(), timestamps, type));
  }

  /** The account's owner sends `text` to `to` (a person or group) from their phone: a sync message. */
  sentFromOtherDevice(to: SignalPerson | SignalGroup, text: string): SignalEnvelope {
    return this.sendEnvelope(syncSentEnvelope(this.#state.self(), this.nextTimestamp(), to, text));
  }

  /** Any envelope, as Signal delivers it: to the open streams, or kept until one opens. */
  sendEnvelope(envelope: SignalEnvelope): SignalEnvelope {
    this.#deliver(envelope);
    return structuredClone(envelope);
  }

  /** Messages the account sent to `recipient` (a number, person or group), oldest first. */
  sent(recipient: string | SignalPerson | SignalGroup): SignalSent[] {
    return structuredClone(this.#state.sentTo.get(keyOf(recipient)) ?? []);
  }

  /** Typing the account showed `recipient`, in order. */
  typing(recipient: string | SignalPerson | SignalGroup): ("started" | "stopped")[] {
    return [...this.#state.typingTo.get(keyOf(recipient)) ?? []];
  }

  /** Event streams open now, ever, and silenced now. */
  get streams(): FakeSignalStreams {
    return this.#streams.counts;
  }

  /** Resolves once the streams satisfy `check`. */
  streamsWhen(check: (streams: FakeSignalStreams) => boolean): Promise<void> {
    return this.#streams.until(() => check(this.#streams.counts));
  }

  /** The earliest call of `method` (matching `predicate`) not returned yet, waiting for it if need be. */
  nextCall(
    method: string,
    predicate: (call: FakeSignalCall) => boolean = () => true,
  ): Promise<FakeSignalCall> {
    const found = this.calls.find((c) => c.method === method && !this.#returned.has(c) && predicate(c));
    if (found) {
      this.#returned.add(found);
      return Promise.resolve(found);
    }
    const { promise, resolve } = Promise.withResolvers<FakeSignalCall>();
    this.#waiters.push({ method, predicate, resolve });
    return promise;
  }

  /** The next `times` calls of `method` get `fault` instead of their answer. */
  failNext(method: string, fault: FakeSignalFault, options: { times?: number } = {}): void {
    const queue = this.#faults.get(method) ?? [];
    for (let i = 0; i < (options.times ?? 1); i++) queue.push(fault);
    this.#faults.set(method, queue);
  }

  /** Every call of `method` gets `fault` until `clearFaults()`. */
  failAll(method: string, fault: FakeSignalFault): void {
    this.#always.set(method, fault);
  }

  /** Takes back every fault queued or set, for every method. */
  clearFaults(): void {
    this.#faults.clear();
    this.#always.clear();
  }

  /**
   * Signal's servers forget the account (registered elsewhere, or deleted). A daemon of several
   * accounts drops it at once, as signal-cli does when the account's message socket fails to
   * authenticate: its streams end, `?account=` it answers 400, a request naming it -32602
   * "Specified account does not exist", listAccounts no longer lists it. A daemon of one account
   * answers each send -32603 "[401] Authorization failed!" (what it answers until its socket
   * notices; then it shuts down, which a test plays with `goDown()`).
   */
  deregister(): void {
    this.#state.deregister();
    if (this.#state.multiAccount()) this.#streams.endAll();
  }

  /** Silences every open stream: it stays open and says nothing more; how many. */
  stopStream(): number {
    return this.#streams.silenceAll();
  }

  /** Whether the daemon is up (listening). */
  get up(): boolean {
    return this.#server !== undefined;
  }

  /** The daemon shuts down: streams end, connections are refused until `comeBack()`. */
  async goDown(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    this.#server = undefined;
    this.#streams.endAll();
    await server.shutdown();
  }

  /** The daemon comes back on the same port; with `replay`, it hands out again what it had handed out. */
  comeBack(options: { replay?: boolean } = {}): void {
    if (this.#server) return;
    const handed = this.#delivered;
    this.#delivered = [];
    if (options.replay) this.#pending.unshift(...handed);
    this.#listen();
    if (this.#mode === "on-start") this.lost.push(...this.#pending.splice(0));
  }

  /** `goDown()` then `comeBack(options)`. */
  async restart(options: { replay?: boolean } = {}): Promise<void> {
    await this.goDown();
    this.comeBack(options);
  }

  /** Hands `envelopes` (all handed out since the daemon last started, unless told) out again. */
  replay(envelopes: SignalEnvelope[] = [...this.#delivered]): void {
    for (const envelope of envelopes) this.#deliver(envelope);
  }

  /** A new timestamp (ms), later than every one before. */
  nextTimestamp(): number {
    return this.#state.nextTimestamp();
  }

  async close(): Promise<void> {
    await this.goDown();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #listen(): void {
    this.#server = Deno.serve(
      { hostname: "127.0.0.1", port: this.#port, onListen() {} },
      (req, info) => this.#handle(req, info.completed),
    );
    this.#port = this.#server.addr.port;
  }

  #deliver(envelope: SignalEnvelope): void {
    const received: SignalReceived = { envelope, account: this.account };
    if (this.up && this.#streams.hasLive(this.account)) {
      this.#streams.send(received);
      this.#delivered.push(envelope);
    } else if (this.up && this.#mode === "on-start" && this.#streams.counts.open === 0) {
      this.lost.push(envelope);
    } else {
      this.#pending.push(envelope);
    }
  }

  async #handle(req: Request, completed: Promise<void>): Promise<Response> {
    const url = new URL(req.url);
    if (!hostAllowed(req, this.#port)) return await empty(req, 421);
    if (url.pathname === "/api/v1/rpc") {
      if (req.method !== "POST") return await empty(req, 405);
      if (!(req.headers.get("content-type") ?? "").startsWith("application/json")) {
        return await empty(req, 415);
      }
      return answerRpc(await req.text(), {
        daemon: this.#state,
        record: (request) => this.#record(request),
        takeFault: (method) => this.#faults.get(method)?.shift() ?? this.#always.get(method),
      });
    }
    if (url.pathname === "/api/v1/events") {
      if (req.method !== "GET") return await empty(req, 405);
      return this.#events(url, completed);
    }
    if (url.pathname === "/api/v1/check") return await empty(req, req.method === "GET" ? 200 : 405);
    return await empty(req, 404);
  }

  #events(url: URL, completed: Promise<void>): Response {
    const account = url.searchParams.get("account") ?? undefined;
    const other = account !== undefined && account !== this.account && account !== this.#state.self().uuid;
    if (this.#state.multiAccount() && (other || (account !== undefined && !this.#state.registered()))) {
      return new Response(null, { status: 400 });
    }
    const closed = new AbortController();
    completed.finally(() => closed.abort());
    const response = this.#streams.open(this.account, closed.signal);
    for (const envelope of this.#pending.splice(0)) this.#deliver(envelope);
    return response;
  }

  #record(request: JsonRpcRequest): FakeSignalCall {
    const call: FakeSignalCall = {
      method: request.method,
      params: structuredClone(request.params ?? {}),
      id: request.id,
      at: this.#clock.now(),
    };
    this.calls.push(call);
    const waiter = this.#waiters.find((w) => w.method === call.method && w.predicate(call));
    if (waiter) {
      this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
      this.#returned.add(call);
      waiter.resolve(call);
    }
    return call;
  }
}

/** Starts a fake signal-cli daemon; `await using signal = await serveFakeSignal()`. */
export function serveFakeSignal(options: FakeSignalOptions = {}): Promise<FakeSignal> {
  return Promise.resolve(new FakeSignal(options));
}

function keyOf(recipient: string | SignalPerson | SignalGroup): string {
  if (typeof recipient === "string") return recipient;
  return "members" in recipient ? recipient.id : recipient.number;
}
