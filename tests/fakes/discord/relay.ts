/**
 * A TCP relay on 127.0.0.1, port 0, in front of the fake's HTTP server, which the Gateway's url names,
 * so a test can cut its sockets the way a network does: the TCP connection ends with no WebSocket
 * close frame, which a client sees as 1006 (abnormal closure), not as a close code of Discord's.
 */

interface Pair {
  client: Deno.Conn;
  upstream: Deno.Conn;
  done: Promise<unknown>;
}

export class TcpRelay {
  #listener: Deno.TcpListener;
  #target: number;
  #pairs = new Set<Pair>();
  #pending = new Set<Promise<void>>();
  #accepting: Promise<void>;

  constructor(targetPort: number) {
    this.#target = targetPort;
    this.#listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    this.#accepting = this.#accept();
  }

  get port(): number {
    return this.#listener.addr.port;
  }

  /** Cuts every relayed connection; how many. */
  dropAll(): number {
    const pairs = [...this.#pairs];
    for (const pair of pairs) cut(pair);
    return pairs.length;
  }

  async close(): Promise<void> {
    this.#listener.close();
    await this.#accepting;
    await Promise.all(this.#pending);
    const pairs = [...this.#pairs];
    for (const pair of pairs) cut(pair);
    await Promise.all(pairs.map((p) => p.done));
  }

  async #accept(): Promise<void> {
    try {
      for await (const client of this.#listener) {
        const pending = this.#relay(client);
        this.#pending.add(pending);
        pending.finally(() => this.#pending.delete(pending));
      }
    } catch {
      // The listener closed.
    }
  }

  async #relay(client: Deno.Conn): Promise<void> {
    let upstream: Deno.Conn;
    try {
      upstream = await Deno.connect({ hostname: "127.0.0.1", port: this.#target });
    } catch {
      closeQuietly(client);
      return;
    }
    const pair: Pair = { client, upstream, done: Promise.resolve() };
    pair.done = Promise.allSettled([
      client.readable.pipeTo(upstream.writable),
      upstream.readable.pipeTo(client.writable),
    ]).then(() => {
      cut(pair);
      this.#pairs.delete(pair);
    });
    this.#pairs.add(pair);
  }
}

function cut(pair: Pair): void {
  closeQuietly(pair.client);
  closeQuietly(pair.upstream);
}

function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // Closed already.
  }
}
