import assert from "node:assert/strict";
import { MAX_BODY } from "../../../core/webhooks/mod.ts";
import { serveFakeModel } from "../../fakes/fake_model.ts";
import { listening } from "./_support.ts";

const FIFTY_MB = 50 * 1024 * 1024;

/** Reads the status of the first response on a connection. */
async function statusOf(conn: Deno.Conn): Promise<number> {
  const buf = new Uint8Array(4096);
  let head = "";
  while (!head.includes("\r\n")) {
    const n = await conn.read(buf);
    if (n === null) break;
    head += new TextDecoder().decode(buf.subarray(0, n));
  }
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
}

Deno.test("attack: a post declaring 50 MB is refused 413 before its body is sent", async () => {
  await using model = await serveFakeModel();
  await using hooks = await listening(model);
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: hooks.port });
  try {
    const head = `POST /gh HTTP/1.1\r\nHost: x\r\nContent-Length: ${FIFTY_MB}\r\n\r\n`;
    await conn.write(new TextEncoder().encode(head));
    await conn.write(new Uint8Array(64 * 1024));
    // Answered with 64 KiB of 50 MB sent: nothing waited for the rest, nor kept it.
    assert.equal(await statusOf(conn), 413);
  } finally {
    conn.close();
  }
  assert.equal(model.requests.length, 0);
});

Deno.test("attack: a chunked post of 50 MB is read no further than the cap and refused 413", async () => {
  await using model = await serveFakeModel();
  await using hooks = await listening(model);
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: hooks.port });
  const status = statusOf(conn);
  let sent = 0;
  try {
    await conn.write(
      new TextEncoder().encode("POST /gh HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"),
    );
    const chunk = new Uint8Array(64 * 1024);
    const frame = new TextEncoder().encode(`${chunk.length.toString(16)}\r\n`);
    const answered = status.then(() => true);
    while (sent < FIFTY_MB) {
      const done = await Promise.race([answered, Promise.resolve(false)]);
      if (done) break;
      try {
        await conn.write(frame);
        await conn.write(chunk);
        await conn.write(new TextEncoder().encode("\r\n"));
      } catch {
        break; // the listener closed the connection: it reads no more
      }
      sent += chunk.length;
    }
    assert.equal(await status, 413);
    assert.ok(sent > MAX_BODY, `sent ${sent}`);
  } finally {
    conn.close();
  }
});
