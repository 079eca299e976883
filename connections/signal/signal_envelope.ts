import { z } from "zod";

/** A message's body, as far as Link reads one (signal-cli's JsonDataMessage). */
export const SignalDataMessage = z.looseObject({
  timestamp: z.number().optional(),
  message: z.string().nullish(),
  attachments: z.array(z.unknown()).nullish(),
  sticker: z.unknown().optional(),
  groupInfo: z.unknown().optional(),
  groupV2: z.unknown().optional(),
});
export type SignalDataMessage = z.infer<typeof SignalDataMessage>;

/** One envelope the daemon received (signal-cli's JsonMessageEnvelope). */
export const SignalEnvelope = z.looseObject({
  source: z.string().nullish(),
  sourceNumber: z.string().nullish(),
  sourceUuid: z.string().nullish(),
  sourceName: z.string().nullish(),
  timestamp: z.number().int(),
  dataMessage: SignalDataMessage.nullish(),
  syncMessage: z.unknown().optional(),
  receiptMessage: z.unknown().optional(),
  typingMessage: z.unknown().optional(),
});
export type SignalEnvelope = z.infer<typeof SignalEnvelope>;

/** A `receive` event's data on the daemon's stream: the envelope and the account it came to. */
export const SignalReceive = z.looseObject({ envelope: SignalEnvelope, account: z.string().optional() });
export type SignalReceive = z.infer<typeof SignalReceive>;

/** Who sent an envelope, as a name Link can keep: the number when shown, else the ACI (uuid). */
export function sourceOf(envelope: SignalEnvelope): string | undefined {
  return envelope.sourceNumber ?? envelope.sourceUuid ?? envelope.source ?? undefined;
}

/** The key of exactly once: who sent it and when, which a replayed envelope keeps. */
export function envelopeKey(envelope: SignalEnvelope): string | undefined {
  const source = sourceOf(envelope);
  return source === undefined ? undefined : `${source}_${envelope.timestamp}`;
}

/** What an envelope is, to tell what is answered: a direct message, a group's, or neither. */
export function kindOf(envelope: SignalEnvelope): "direct" | "group" | "other" {
  const data = envelope.dataMessage;
  if (!data) return "other";
  if (data.groupInfo !== undefined || data.groupV2 !== undefined) return "group";
  return "direct";
}

/** Whether a message holds an attachment or a sticker and no text. */
export function isWithoutText(data: SignalDataMessage): boolean {
  const text = data.message ?? "";
  return !text.trim() && ((data.attachments?.length ?? 0) > 0 || data.sticker !== undefined);
}
