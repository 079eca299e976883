/**
 * Bytes that are not HTTP/1.1 as RFC 9112 writes it, or that end in the middle of a message.
 * Each user answers it its own way (the proxy 400, the door by framing no more, Link's client a
 * LinkError); it never reaches a person as it is. The message is a clause that reads after a
 * colon: "the chunk size is not valid".
 */
export class Http1Malformed extends Error {
  override name = "Http1Malformed";
  /** True when the peer ended mid-message rather than sent something wrong. */
  readonly ended: boolean;

  constructor(message: string, options: { ended?: boolean } = {}) {
    super(message);
    this.ended = options.ended ?? false;
  }
}

/** The peer ended in the middle of `what`: "a head", "a body". */
export function endedMidway(what: string): Http1Malformed {
  return new Http1Malformed(`the connection ended in the middle of ${what}`, { ended: true });
}
