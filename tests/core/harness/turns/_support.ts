import type { OpenStore } from "../../../../core/harness/store/mod.ts";

/** A pause armed at a store call: `reached` resolves when the call gets there, `open()` lets it on. */
export interface Pause {
  readonly reached: Promise<void>;
  open(): void;
}

/** A files store whose next lease release can be held before or after it lets the lease go. */
export interface GatedStore extends OpenStore {
  /** Holds the next release before the lease goes: the turn has answered and still holds it. */
  pauseBeforeRelease(): Pause;
  /** Holds the next release after the lease went, before the turn looks again. */
  pauseAfterRelease(): Pause;
}

/**
 * Wraps a real store so a test can force the window between a turn's last look and its release
 * (TRN-10): every call goes to the real driver; only the timing of one release is held.
 */
export function gatedStore(inner: OpenStore): GatedStore {
  let before: { reached: () => void; gate: Promise<void> } | undefined;
  let after: { reached: () => void; gate: Promise<void> } | undefined;
  const arm = () => {
    const reached = Promise.withResolvers<void>();
    const gate = Promise.withResolvers<void>();
    return {
      pause: { reached: reached.promise, open: () => gate.resolve() },
      armed: { reached: () => reached.resolve(), gate: gate.promise },
    };
  };
  return {
    ...inner,
    async leaseRelease(conversation, lease) {
      const held = before;
      before = undefined;
      if (held) {
        held.reached();
        await held.gate;
      }
      await inner.leaseRelease(conversation, lease);
      const then = after;
      after = undefined;
      if (then) {
        then.reached();
        await then.gate;
      }
    },
    pauseBeforeRelease() {
      const { pause, armed } = arm();
      before = armed;
      return pause;
    },
    pauseAfterRelease() {
      const { pause, armed } = arm();
      after = armed;
      return pause;
    },
  };
}
