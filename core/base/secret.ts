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
