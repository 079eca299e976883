/** How the carrier of a Discord connection is: what `lnk agent status` says of it. */
export type DiscordState = {
  state: "connected" | "reconnecting" | "failed";
  /** Why it reconnects or failed, token-free. */
  why?: string;
  /** When it came to this state, by the carrier's clock. */
  at: number;
};
