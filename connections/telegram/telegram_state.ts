/** How the carrier of a Telegram connection is: what `lnk agent status` says of it. */
export type TelegramState = {
  state: "polling" | "reconnecting" | "failed";
  /** Why it reconnects or failed, token-free. */
  why?: string;
  /** When it came to this state, by the carrier's clock. */
  at: number;
};
