/** How the carrier of a Slack connection is: what `lnk agent status` says of it. */
export type SlackState = {
  state: "connected" | "reconnecting" | "failed";
  /** Why it reconnects or failed, token-free. */
  why?: string;
  /** When it came to this state, by the carrier's clock. */
  at: number;
};
