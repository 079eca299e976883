/** How the carrier of a Signal connection is: what `lnk agent status` says of it. */
export type SignalState = {
  state: "connected" | "reconnecting" | "failed";
  /** Why it reconnects or failed. */
  why?: string;
  /** When it came to this state, by the carrier's clock. */
  at: number;
};
