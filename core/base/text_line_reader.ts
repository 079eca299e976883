/**
 * Reads a byte stream as lines of UTF-8 text: the framing of the store driver protocol and of the
 * shared harness's host role. (A connection's lines, kept byte for byte, are http1/'s ConnReader's.)
 */
export class TextLineReader {
  #reader: ReadableStreamDefaultReader<string>;
  #buffer = "";

  constructor(stream: ReadableStream<Uint8Array>) {
    this.#reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  }

  /** The next line without its newline, or undefined at the end of the stream. */
  async next(): Promise<string | undefined> {
    for (;;) {
      const nl = this.#buffer.indexOf("\n");
      if (nl >= 0) {
        const line = this.#buffer.slice(0, nl);
        this.#buffer = this.#buffer.slice(nl + 1);
        return line;
      }
      const { done, value } = await this.#reader.read();
      if (done) {
        const rest = this.#buffer;
        this.#buffer = "";
        return rest === "" ? undefined : rest;
      }
      this.#buffer += value;
    }
  }

  /** Stops reading; a pending next() ends with undefined. */
  async cancel(): Promise<void> {
    await this.#reader.cancel().catch(() => {});
  }
}
