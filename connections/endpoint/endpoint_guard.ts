import {
  type AgentKey,
  checkProof,
  type Clock,
  errorResponse,
  LinkError,
  makeProof,
  newChallenge,
  SYSTEM_CLOCK,
} from "../../core/base/mod.ts";
import type { EndpointConn } from "./http1_server.ts";

/** The endpoint's route where a caller's challenge is answered (U-2). */
export const PROOF_PATH = "/_link/proof";
/** How long a challenge the endpoint gave stays good: the bridges' whole-exchange deadline (BRG-12). */
export const CHALLENGE_TTL_MS = 5000;

/** Options of an endpoint guard. */
export interface EndpointGuardOptions {
  /** The key of an agent this endpoint answers for, by ID; undefined for one it does not run. */
  keyFor(agentId: string): AgentKey | undefined;
  clock?: Clock;
}

/** A challenge handed out: for which agent, when, and on which connection. */
interface Issued {
  agentId: string;
  at: number;
  conn: EndpointConn;
}

/**
 * The endpoint's half of the proof: it proves itself to a caller's challenge (label
 * link-endpoint-v1) and hands out single-use challenges the caller must prove each request with
 * (label link-caller-v1), so the key never travels (BRG-1, BRG-8, ARCHITECTURE.md section 7).
 * A challenge holds only on the connection it was handed out on (BRG-2): the port cannot change
 * hands between the proof and the request, and a proof seen on one connection is of no use on
 * another.
 */
export class EndpointGuard {
  #keyFor: (agentId: string) => AgentKey | undefined;
  #clock: Clock;
  #issued = new Map<string, Issued>();
  #held = new Set<string>();
  #byConn = new WeakMap<EndpointConn, Set<string>>();

  constructor(options: EndpointGuardOptions) {
    this.#keyFor = options.keyFor;
    this.#clock = options.clock ?? SYSTEM_CLOCK;
  }

  /**
   * Answers `GET /_link/proof` on `conn`: proves the endpoint holds the agent's key, and gives a
   * challenge for that connection's next request.
   */
  answerProof(req: Request, conn: EndpointConn): Response {
    const agentId = req.headers.get("link-agent-id") ?? "";
    const challenge = req.headers.get("link-challenge") ?? "";
    const key = this.#keyFor(agentId);
    if (!key || !/^[0-9a-f]{64}$/.test(challenge)) {
      return errorResponse(new LinkError("REFUSED", "This endpoint does not answer for that agent"));
    }
    return new Response(null, {
      status: 200,
      headers: {
        "Link-Proof": makeProof(key, "link-endpoint-v1", challenge, agentId),
        ...this.nextChallenge(agentId, conn),
      },
    });
  }

  /** A fresh single-use challenge for the caller's next request on `conn`, as a response header. */
  nextChallenge(agentId: string, conn: EndpointConn): Record<string, string> {
    this.#sweep();
    const challenge = newChallenge();
    this.#issued.set(challenge, { agentId, at: this.#clock.now(), conn });
    this.#onConn(conn).add(challenge);
    return { "Link-Challenge": challenge };
  }

  /**
   * Holds a challenge handed out at the head of an answer that takes long (a streamed turn, a
   * long wait): the caller can use it only once the answer ends, so its time starts again then,
   * when the returned function is called.
   */
  hold(challenge: string): () => void {
    this.#held.add(challenge);
    return () => {
      this.#held.delete(challenge);
      const issued = this.#issued.get(challenge);
      if (issued) issued.at = this.#clock.now();
    };
  }

  /**
   * Checks a request's `Link-Proof: <challenge> <proof>` on the connection it came on. A challenge
   * of another connection is refused and left to its own; one of this connection is spent either way.
   */
  verify(req: Request, conn: EndpointConn): { ok: true; agentId: string } | { ok: false; reason: string } {
    const [challenge = "", proof = ""] = (req.headers.get("link-proof") ?? "").split(" ");
    const agentId = req.headers.get("link-agent-id") ?? "";
    const issued = this.#issued.get(challenge);
    if (issued && issued.conn !== conn) {
      return { ok: false, reason: "the challenge was given on another connection" };
    }
    const held = this.#held.delete(challenge);
    this.#forget(challenge);
    if (!issued || (!held && this.#clock.now() - issued.at > CHALLENGE_TTL_MS)) {
      return { ok: false, reason: "no live challenge" };
    }
    if (issued.agentId !== agentId) return { ok: false, reason: "the challenge was for another agent" };
    const key = this.#keyFor(agentId);
    if (!key || !checkProof(key, "link-caller-v1", challenge, proof, agentId)) {
      return { ok: false, reason: "wrong proof" };
    }
    return { ok: true, agentId };
  }

  /** The challenges given on `conn`, dropped when it ends. */
  #onConn(conn: EndpointConn): Set<string> {
    let given = this.#byConn.get(conn);
    if (given) return given;
    given = new Set();
    const mine = given;
    this.#byConn.set(conn, mine);
    conn.closed.addEventListener("abort", () => {
      for (const challenge of mine) {
        this.#held.delete(challenge);
        this.#issued.delete(challenge);
      }
      mine.clear();
    }, { once: true });
    return mine;
  }

  #forget(challenge: string): void {
    const issued = this.#issued.get(challenge);
    if (!issued) return;
    this.#issued.delete(challenge);
    this.#byConn.get(issued.conn)?.delete(challenge);
  }

  #sweep(): void {
    const now = this.#clock.now();
    for (const [c, { at }] of this.#issued) {
      if (now - at > CHALLENGE_TTL_MS && !this.#held.has(c)) this.#forget(c);
    }
  }
}
