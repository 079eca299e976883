/** A place held by one connection that has not proved itself yet. */
export interface UnprovenPlace {
  /** Gives the place back: the connection proved itself, failed, or ended. */
  release(): void;
}

interface Holder {
  evict: () => void;
}

/**
 * Places for connections not yet proved (BRG-13, U-10): a few per user and a ceiling per
 * bridge. A user's newest connection takes the place of its own oldest, so one user's flood
 * never takes another user's place; proven calls hold no place here.
 */
export class UnprovenPlaces {
  #perUser: number;
  #perBridge: number;
  #byUser = new Map<string, Holder[]>();
  #size = 0;

  constructor(options: { perUser: number; perBridge: number }) {
    this.#perUser = Math.max(1, options.perUser);
    this.#perBridge = Math.max(1, options.perBridge);
  }

  /** How many places are held. */
  get size(): number {
    return this.#size;
  }

  /** How many places one user holds. */
  heldBy(user: string): number {
    return this.#byUser.get(user)?.length ?? 0;
  }

  /**
   * Takes a place for `user`. When the user holds its share, or the bridge is full and the user
   * holds any, the user's oldest gives way (`evict` runs for it). Undefined when the bridge is
   * full of other users' places.
   */
  take(user: string, evict: () => void): UnprovenPlace | undefined {
    const mine = this.#byUser.get(user) ?? [];
    if (mine.length >= this.#perUser || (this.#size >= this.#perBridge && mine.length > 0)) {
      this.#drop(user, mine[0]!)?.evict();
    } else if (this.#size >= this.#perBridge) {
      return undefined;
    }
    const holder: Holder = { evict };
    const list = this.#byUser.get(user) ?? [];
    list.push(holder);
    this.#byUser.set(user, list);
    this.#size++;
    return { release: () => void this.#drop(user, holder) };
  }

  #drop(user: string, holder: Holder): Holder | undefined {
    const list = this.#byUser.get(user);
    const at = list?.indexOf(holder) ?? -1;
    if (!list || at < 0) return undefined;
    list.splice(at, 1);
    if (list.length === 0) this.#byUser.delete(user);
    this.#size--;
    return holder;
  }
}
