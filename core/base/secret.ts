/** A value that must never be printed or logged: tokens, keys, the proxy's secret. */
export class Secret {
  #value: string;
  constructor(value: string) {
    this.#value = value;
  }
  /** The value itself: call only where the value is sent or used. */
  reveal(): string {
    return this.#value;
  }
  /** Whether `given` is this value, compared in time independent of where the texts differ. */
  matches(given: string): boolean {
    const a = new TextEncoder().encode(given);
    const b = new TextEncoder().encode(this.#value);
    let diff = a.length ^ b.length;
    for (let i = 0; i < b.length; i++) diff |= (a[i] ?? 0) ^ b[i]!;
    return diff === 0;
  }
  toString(): string {
    return "[redacted]";
  }
  toJSON(): string {
    return "[redacted]";
  }
  [Symbol.for("Deno.customInspect")](): string {
    return "Secret([redacted])";
  }
}
