/**
 * The fake signal-cli's people, groups and envelopes, spelled as signal-cli 0.14.6 writes them in a
 * `receive` event (`JsonMessageEnvelope`, `JsonDataMessage` and friends): fields Jackson leaves out
 * when null are left out here too, the ones it always writes (`expiresInSeconds`, `viewOnce`,
 * `isExpirationUpdate`, the server timestamps) are always here.
 */

/** Someone with a Signal account: their number, ACI (uuid) and profile name. */
export interface SignalPerson {
  name: string;
  number: string;
  uuid: string;
}

/** A Signal group (v2): its base64 id of 32 bytes, its name, and its members (the account among them). */
export interface SignalGroup {
  id: string;
  name: string;
  members: SignalPerson[];
  revision: number;
}

/** `dataMessage` of an envelope (and the `sentMessage` of a sync message, unwrapped into it). */
export interface SignalDataMessage {
  timestamp: number;
  message: string | null;
  expiresInSeconds: number;
  isExpirationUpdate: boolean;
  viewOnce: boolean;
  groupInfo?: { groupId: string; groupName: string; revision: number; type: "DELIVER" | "UPDATE" };
  attachments?: SignalAttachment[];
  sticker?: { packId: string; stickerId: number };
  remoteDelete?: { timestamp: number };
  quote?: Record<string, unknown>;
  mentions?: Record<string, unknown>[];
  reaction?: Record<string, unknown>;
  [field: string]: unknown;
}

/** An attachment as `JsonAttachment` spells it. */
export interface SignalAttachment {
  contentType: string;
  filename: string | null;
  id: string | null;
  size: number | null;
  width: number | null;
  height: number | null;
  caption: string | null;
  uploadTimestamp: number | null;
}

/** One envelope, as the `envelope` of a receive event. */
export interface SignalEnvelope {
  source: string;
  sourceNumber: string;
  sourceUuid: string;
  sourceName: string;
  sourceDevice: number;
  timestamp: number;
  serverReceivedTimestamp: number;
  serverDeliveredTimestamp: number;
  dataMessage?: SignalDataMessage;
  editMessage?: { targetSentTimestamp: number; dataMessage: SignalDataMessage };
  syncMessage?: { sentMessage?: Record<string, unknown>; [field: string]: unknown };
  receiptMessage?: {
    when: number;
    isDelivery: boolean;
    isRead: boolean;
    isViewed: boolean;
    timestamps: number[];
  };
  typingMessage?: { action: "STARTED" | "STOPPED"; timestamp: number; groupId?: string };
  [field: string]: unknown;
}

/** What a receive event carries (its SSE `data:`): the envelope and the account it came to. */
export interface SignalReceived {
  envelope: SignalEnvelope;
  account: string;
}

/** A data message of `text` sent at `timestamp`, with `extra` fields (groupInfo, attachments, …). */
export function dataMessage(
  timestamp: number,
  text: string | null,
  extra: Partial<SignalDataMessage> = {},
): SignalDataMessage {
  return {
    timestamp,
    message: text,
    expiresInSeconds: 0,
    isExpirationUpdate: false,
    viewOnce: false,
    ...extra,
  };
}

/** The `groupInfo` a message in `group` carries. */
export function groupInfo(group: SignalGroup): NonNullable<SignalDataMessage["groupInfo"]> {
  return { groupId: group.id, groupName: group.name, revision: group.revision, type: "DELIVER" };
}

/** An envelope from `person`'s device `device` at `timestamp`, carrying `content`. */
export function envelopeFrom(
  person: SignalPerson,
  timestamp: number,
  content: Partial<SignalEnvelope>,
  device = 1,
): SignalEnvelope {
  return {
    source: person.number,
    sourceNumber: person.number,
    sourceUuid: person.uuid,
    sourceName: person.name,
    sourceDevice: device,
    timestamp,
    serverReceivedTimestamp: timestamp + 1,
    serverDeliveredTimestamp: timestamp + 2,
    ...content,
  };
}

/** A base64 group id of 32 random bytes, as a v2 group's. */
export function newGroupId(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
}

/** `person` edits `original` to read `text`, at `timestamp`. */
export function editEnvelope(
  person: SignalPerson,
  timestamp: number,
  original: SignalEnvelope,
  text: string,
): SignalEnvelope {
  const message = dataMessage(timestamp, text, sameGroup(original));
  return envelopeFrom(person, timestamp, {
    editMessage: { targetSentTimestamp: original.timestamp, dataMessage: message },
  });
}

/** `person` deletes `original` for everyone, at `timestamp`. */
export function deleteEnvelope(
  person: SignalPerson,
  timestamp: number,
  original: SignalEnvelope,
): SignalEnvelope {
  const message = dataMessage(timestamp, null, {
    remoteDelete: { timestamp: original.timestamp },
    ...sameGroup(original),
  });
  return envelopeFrom(person, timestamp, { dataMessage: message });
}

/** `person` starts or stops typing (in `group`), at `timestamp`. */
export function typingEnvelope(
  person: SignalPerson,
  timestamp: number,
  action: "STARTED" | "STOPPED",
  group?: SignalGroup,
): SignalEnvelope {
  const typingMessage = { action, timestamp, ...(group ? { groupId: group.id } : {}) };
  return envelopeFrom(person, timestamp, { typingMessage });
}

/** `person`'s device says it got, read or viewed the messages sent at `timestamps`. */
export function receiptEnvelope(
  person: SignalPerson,
  when: number,
  timestamps: number[],
  type: "delivery" | "read" | "viewed",
): SignalEnvelope {
  const receiptMessage = {
    when,
    isDelivery: type === "delivery",
    isRead: type === "read",
    isViewed: type === "viewed",
    timestamps,
  };
  return envelopeFrom(person, when, { receiptMessage });
}

/**
 * The account's own phone (device 2) sent `text` to `to`: a sync message's `sentMessage`, its
 * destination beside the data message's fields (`JsonSyncDataMessage` unwraps it).
 */
export function syncSentEnvelope(
  self: SignalPerson,
  timestamp: number,
  to: SignalPerson | SignalGroup,
  text: string,
): SignalEnvelope {
  const isGroup = "members" in to;
  const destination = isGroup
    ? { destination: null, destinationNumber: null, destinationUuid: null }
    : { destination: to.number, destinationNumber: to.number, destinationUuid: to.uuid };
  const message = dataMessage(timestamp, text, isGroup ? { groupInfo: groupInfo(to) } : {});
  return envelopeFrom(self, timestamp, { syncMessage: { sentMessage: { ...destination, ...message } } }, 2);
}

function sameGroup(original: SignalEnvelope): Partial<SignalDataMessage> {
  const info = original.dataMessage?.groupInfo;
  return info ? { groupInfo: info } : {};
}
