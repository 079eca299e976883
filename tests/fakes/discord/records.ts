/** What the fake Gateway records of the sockets and what came on them. */

/** The sockets: open now, ever opened, and the most open at once. */
export interface FakeDiscordSockets {
  open: number;
  ever: number;
  mostAtOnce: number;
}

/** An IDENTIFY the fake received. */
export interface FakeDiscordIdentify {
  socket: number;
  token: string;
  intents: number;
  /** Its session, "" when refused. */
  session_id: string;
  at: number;
}

/** A RESUME the fake received, and whether it resumed (how many dispatches it replayed). */
export interface FakeDiscordResume {
  socket: number;
  session_id: string;
  seq: number;
  resumed: boolean;
  replayed: number;
  at: number;
}

/** A heartbeat (op 1) the client sent, with the seq it carried. */
export interface FakeDiscordHeartbeat {
  socket: number;
  seq: number | null;
  acked: boolean;
  at: number;
}

/** A socket's end: its close code, and who ended it (the client, the fake, or a dropped network). */
export interface FakeDiscordClose {
  socket: number;
  code: number;
  by: "client" | "fake" | "network";
}
