/**
 * The JSON-RPC methods the fake signal-cli answers, with the results and errors signal-cli 0.14.6
 * gives (`SendCommand`, `SendTypingCommand`, `SendReceiptCommand`, `VersionCommand`,
 * `ListGroupsCommand`, `ListAccountsCommand`, `SendMessageResultUtils`). Parameters are read as its
 * `JsonRpcNamespace` reads them: camelCase names, a list given as one value or an array, or under the
 * plural name (`recipients`). Any other method answers -32601 "Method not implemented".
 */
import type { SignalGroup, SignalPerson } from "./envelopes.ts";
import {
  INTERNAL_ERROR,
  INVALID_PARAMS,
  METHOD_NOT_FOUND,
  RATELIMIT_ERROR,
  RpcError,
  USER_ERROR,
} from "./json_rpc.ts";

/** The signal-cli version the fake answers `version` with and follows. */
export const SIGNAL_CLI_VERSION = "0.14.6";

/** What the methods need of the daemon: who exists, and where to record what was done. */
export interface Daemon {
  /** The daemon's account. */
  self(): SignalPerson;
  /** Whether Signal's servers still know the account (false once `deregister()`ed). */
  registered(): boolean;
  /** Whether it was started without `-a`. */
  multiAccount(): boolean;
  /** Numbers listAccounts lists beside the daemon's own (the fake serves only its own). */
  otherAccounts(): string[];
  groups(): ReadonlyMap<string, SignalGroup>;
  /** A person by number or uuid. */
  personOf(recipient: string): SignalPerson | undefined;
  /** A new timestamp (ms), later than every one before. */
  nextTimestamp(): number;
  recordSent(recipient: string, sent: SignalSent): void;
  recordTyping(recipient: string, action: "started" | "stopped"): void;
}

/** A message the account sent, as recorded per recipient (a number or a group id). */
export interface SignalSent {
  message: string;
  timestamp: number;
  attachments: string[];
  /** The call's whole params. */
  params: Record<string, unknown>;
}

type Params = Record<string, unknown>;
type Method = (daemon: Daemon, params: Params) => unknown;

const METHODS: Record<string, Method> = {
  send,
  sendTyping,
  sendReceipt,
  version: () => ({ version: SIGNAL_CLI_VERSION }),
  listGroups: (daemon) => [...daemon.groups().values()].map(jsonGroup),
};

/** The methods that reach Signal's servers, refused once they no longer know the account. */
const SENDING = new Set(["send", "sendTyping", "sendReceipt"]);

/**
 * What signal-cli answers a send from an account Signal's servers no longer know (deregistered),
 * until its message socket notices (`SendCommand`: the IOException as UnexpectedErrorException).
 */
export const DEREGISTERED_ERROR = {
  code: INTERNAL_ERROR,
  message: "Failed to send message: [401] Authorization failed! (AuthorizationFailedException) " +
    "(UnexpectedErrorException)",
};

/** Runs `method` with `params` for `daemon`; its result, or throws RpcError as signal-cli would answer. */
export function runMethod(daemon: Daemon, method: string, params: Params | undefined): unknown {
  const given = { ...params };
  if (daemon.multiAccount()) {
    // A deregistered account's manager was closed on its socket's AUTHENTICATION_FAILED and
    // dropped from the daemon (`MultiAccountManagerImpl.removeManager`): it is no longer served.
    const served = daemon.registered() ? [daemon.self().number] : [];
    if (method === "listAccounts") {
      return [...served, ...daemon.otherAccounts()].map((number) => ({ number }));
    }
    if (METHODS[method] && given.account !== undefined && given.account !== null) {
      if (
        !daemon.registered() ||
        (given.account !== daemon.self().number && given.account !== daemon.self().uuid)
      ) {
        throw new RpcError(INVALID_PARAMS, "Specified account does not exist");
      }
      delete given.account;
    }
  }
  const run = METHODS[method];
  if (!run) throw new RpcError(METHOD_NOT_FOUND, "Method not implemented");
  if (SENDING.has(method) && !daemon.registered()) {
    throw new RpcError(DEREGISTERED_ERROR.code, DEREGISTERED_ERROR.message);
  }
  return run(daemon, given);
}

/** The -5 error a send answers when Signal's servers rate limit every recipient, retry after `seconds`. */
export function rateLimitError(daemon: Daemon, params: Params | undefined, seconds: number): RpcError {
  const results = addressesOf(daemon, params ?? {}).map((address) => ({
    ...address,
    type: "RATE_LIMIT_FAILURE",
    retryAfterSeconds: seconds,
  }));
  return new RpcError(RATELIMIT_ERROR, "Failed to send message due to rate limiting", {
    response: { timestamp: daemon.nextTimestamp(), results },
  });
}

function send(daemon: Daemon, params: Params): unknown {
  const targets = targetsOf(daemon, params);
  const message = stringOf(params, "message") ?? "";
  const attachments = listOf(params, "attachment");
  if (message === "" && attachments.length === 0 && params.sticker === undefined) {
    throw new RpcError(
      USER_ERROR,
      "Sending empty message is not allowed, either a message, attachment or sticker must be given.",
    );
  }
  const timestamp = daemon.nextTimestamp();
  for (const target of targets) daemon.recordSent(target.key, { message, timestamp, attachments, params });
  return { timestamp, results: resultsOf(daemon, targets) };
}

function sendTyping(daemon: Daemon, params: Params): unknown {
  const targets = targetsOf(daemon, params);
  const stop = params.stop ?? false;
  if (typeof stop !== "boolean") throw castError(stop, "Boolean");
  for (const target of targets) daemon.recordTyping(target.key, stop ? "stopped" : "started");
  return { timestamp: daemon.nextTimestamp(), results: resultsOf(daemon, targets) };
}

function sendReceipt(daemon: Daemon, params: Params): unknown {
  const recipient = stringOf(params, "recipient");
  if (recipient === undefined) {
    throw new RpcError(INTERNAL_ERROR, 'Cannot invoke "String.startsWith(String)" (NullPointerException)');
  }
  const type = stringOf(params, "type") ?? "read";
  if (type !== "read" && type !== "viewed") throw new RpcError(USER_ERROR, `Unknown receipt type: ${type}`);
  const person = registered(daemon, recipient);
  return { timestamp: daemon.nextTimestamp(), results: [{ ...addressOf(person), type: "SUCCESS" }] };
}

interface Target {
  /** The number of a person or the id of a group, as `sent()` and `typing()` key them. */
  key: string;
  people: SignalPerson[];
  groupId?: string;
}

function targetsOf(daemon: Daemon, params: Params): Target[] {
  const recipients = listOf(params, "recipient");
  const groupIds = listOf(params, "groupId");
  if (recipients.length === 0 && groupIds.length === 0) throw new RpcError(USER_ERROR, "No recipients given");
  const people = recipients.map((r) => registered(daemon, r)).map((p) => ({ key: p.number, people: [p] }));
  const groups = groupIds.map((id) => {
    const group = daemon.groups().get(id);
    if (!group) throw new RpcError(USER_ERROR, `Group not found: ${id}`);
    const others = group.members.filter((m) => m.uuid !== daemon.self().uuid);
    return { key: group.id, people: others, groupId: group.id };
  });
  return [...people, ...groups];
}

function registered(daemon: Daemon, recipient: string): SignalPerson {
  const person = daemon.personOf(recipient);
  if (!person) throw new RpcError(USER_ERROR, `The user ${recipient} is not registered.`);
  return person;
}

function resultsOf(_daemon: Daemon, targets: Target[]): unknown[] {
  return targets.flatMap((t) =>
    t.people.map((p) => ({ ...addressOf(p), ...(t.groupId ? { groupId: t.groupId } : {}), type: "SUCCESS" }))
  );
}

function addressesOf(daemon: Daemon, params: Params): { recipientAddress: unknown }[] {
  try {
    return targetsOf(daemon, params).flatMap((t) => t.people.map(addressOf));
  } catch {
    return [];
  }
}

function addressOf(person: SignalPerson): { recipientAddress: unknown } {
  return { recipientAddress: { uuid: person.uuid, number: person.number, username: null } };
}

function jsonGroup(group: SignalGroup): unknown {
  return {
    id: group.id,
    name: group.name,
    description: "",
    isMember: true,
    isBlocked: false,
    messageExpirationTime: 0,
    members: group.members.map((m) => ({ number: m.number, uuid: m.uuid, isAdmin: false })),
    pendingMembers: [],
    requestingMembers: [],
    admins: [],
    banned: [],
    permissionAddMember: "EVERY_MEMBER",
    permissionEditDetails: "EVERY_MEMBER",
    permissionSendMessage: "EVERY_MEMBER",
    groupInviteLink: null,
  };
}

/** A list parameter as `JsonRpcNamespace.getList` reads it: `name` (one value or an array) or `names`. */
function listOf(params: Params, name: string): string[] {
  const value = params[name] ?? params[`${name}s`];
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  for (const item of list) if (typeof item !== "string") throw castError(item, "String");
  return list as string[];
}

function stringOf(params: Params, name: string): string | undefined {
  const value = params[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw castError(value, "String");
  return value;
}

function castError(value: unknown, type: string): RpcError {
  const from = typeof value === "number" ? "Integer" : typeof value === "boolean" ? "Boolean" : "String";
  return new RpcError(
    INTERNAL_ERROR,
    `class java.lang.${from} cannot be cast to class java.lang.${type} (ClassCastException)`,
  );
}
