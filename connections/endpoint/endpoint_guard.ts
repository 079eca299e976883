import {
  type AgentKey,
  checkProof,
  type Clock,
  makeProof,
  newChallenge,
  SYSTEM_CLOCK,
} from "../../core/base/mod.ts";

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

/**
 * The endpoint's half of the proof: it proves itself to a caller's challenge (label
 * link-endpoint-v1) and hands out single-use challenges the caller must prove each request with
 * (label link-caller-v1), so the key never travels (BRG-1, BRG-8, ARCHITECTURE.md section 7).
 */
export class EndpointGuard {
  #keyFor: (agentId: string) => AgentKey | undefined;
  #clock: Clock;
  #issued = new Map<string, { agentId: string; at: number }>();
  #held = new Set<string>();

  constructor(options: EndpointGuardOptions) {
    this.#keyFor = options.keyFor;
    this.#clock = options.clock ?? SYSTEM_CLOCK;
  }

  /** Answers `GET /_link/proof`: proves the endpoint holds the agent's key, and gives a challenge. */
  answerProof(req: Request): Response {
    const agentId = req.headers.get("link-agent-id") ?? "";
    const challenge = req.headers.get("link-challenge") ?? "";
    const key = this.#keyFor(agentId);
    if (!key || !/^[0-9a-f]{64}$/.test(challenge)) {
      return Response.json({
        error: { code: "refused", message: "This endpoint does not answer for that agent" },
      }, {
        status: 403,
      });
    }
    return new Response(null, {
      status: 200,
      headers: {
        "Link-Proof": makeProof(key, "link-endpoint-v1", challenge, agentId),
        ...this.nextChallenge(agentId),
      },
    });
  }

  /** A fresh single-use challenge for the caller's next request, as a response header. */
  nextChallenge(agentId: string): Record<string, string> {
    this.#sweep();
    const challenge = newChallenge();
    this.#issued.set(challenge, { agentId, at: this.#clock.now() });
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

  /** Checks a request's `Link-Proof: <challenge> <proof>`; the challenge is spent either way. */
  verify(req: Request): { ok: true; agentId: string } | { ok: false; reason: string } {
    const [challenge = "", proof = ""] = (req.headers.get("link-proof") ?? "").split(" ");
    const agentId = req.headers.get("link-agent-id") ?? "";
    const issued = this.#issued.get(challenge);
    const held = this.#held.delete(challenge);
    this.#issued.delete(challenge);
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

  #sweep(): void {
    const now = this.#clock.now();
    for (const [c, { at }] of this.#issued) {
      if (now - at > CHALLENGE_TTL_MS && !this.#held.has(c)) this.#issued.delete(c);
    }
  }
}
