/**
 * Server-sent events, as chat completions stream them: text goes in piece by piece, the `data`
 * of each complete event comes out. Comments (`: keep-alive`) are skipped; a line that is no SSE
 * field at all (an HTML error page, say) makes `push` return an error instead.
 */
export class SseDecoder {
  #buffer = "";
  #data: string[] | undefined;

  /** Takes the next piece of the body; returns the data of every event it completed. */
  push(text: string): { events: string[]; badLine?: string } {
    this.#buffer += text;
    const events: string[] = [];
    for (;;) {
      const end = this.#buffer.search(/\r\n|\r|\n/);
      if (end < 0) break;
      // A lone \r at the end of a piece may be the first half of \r\n: wait for the next piece.
      if (this.#buffer[end] === "\r" && end === this.#buffer.length - 1) break;
      const line = this.#buffer.slice(0, end);
      const newline = this.#buffer.startsWith("\r\n", end) ? 2 : 1;
      this.#buffer = this.#buffer.slice(end + newline);
      const bad = this.#line(line, events);
      if (bad !== undefined) return { events, badLine: bad };
    }
    return { events };
  }

  /** Ends the body: an event left without its blank line still counts. */
  end(): { events: string[]; badLine?: string } {
    const events: string[] = [];
    const bad = this.#buffer ? this.#line(this.#buffer, events) : undefined;
    this.#buffer = "";
    this.#line("", events);
    return bad === undefined ? { events } : { events, badLine: bad };
  }

  /** Whether any text is held that has not formed an event yet. */
  get pending(): boolean {
    return this.#buffer.length > 0 || this.#data !== undefined;
  }

  #line(line: string, events: string[]): string | undefined {
    if (line === "") {
      if (this.#data !== undefined) events.push(this.#data.join("\n"));
      this.#data = undefined;
      return undefined;
    }
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") (this.#data ??= []).push(value);
    else if (field !== "event" && field !== "id" && field !== "retry") return line;
    return undefined;
  }
}
