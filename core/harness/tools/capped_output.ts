/**
 * Keeps a stream's first and last bytes up to a cap and counts the rest, so a command's output
 * shows how it began and how it ended without holding all of it.
 */
export class CappedOutput {
  #head: Uint8Array[] = [];
  #headBytes = 0;
  #tail: Uint8Array[] = [];
  #tailBytes = 0;
  #total = 0;
  readonly #half: number;

  constructor(cap: number) {
    this.#half = Math.max(1, Math.floor(cap / 2));
  }

  /** Takes in one chunk. */
  push(chunk: Uint8Array): void {
    this.#total += chunk.length;
    if (this.#headBytes < this.#half) {
      const take = chunk.subarray(0, this.#half - this.#headBytes);
      this.#head.push(take);
      this.#headBytes += take.length;
      chunk = chunk.subarray(take.length);
    }
    if (chunk.length === 0) return;
    this.#tail.push(chunk);
    this.#tailBytes += chunk.length;
    while (this.#tailBytes - (this.#tail[0]?.length ?? 0) >= this.#half) {
      this.#tailBytes -= this.#tail.shift()!.length;
    }
  }

  /** The text kept, with a line saying how much was left out in the middle. */
  text(): string {
    const decoder = new TextDecoder();
    const head = decoder.decode(concat(this.#head));
    const tailAll = concat(this.#tail);
    const tail = tailAll.subarray(Math.max(0, tailAll.length - this.#half));
    const omitted = this.#total - this.#headBytes - tail.length;
    if (omitted <= 0) return decoder.decode(concat([...this.#head, tail]));
    return `${head}\n[... ${omitted} bytes left out ...]\n${decoder.decode(tail)}`;
  }

  /** Every byte taken in, kept or not. */
  get total(): number {
    return this.#total;
  }
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return all;
}
