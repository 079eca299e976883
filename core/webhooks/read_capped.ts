/**
 * A request's body, or undefined once it is longer than `max`: a declared length over it is
 * refused before a byte is read, and a chunked body is read no further than the byte past it.
 */
export async function readCapped(req: Request, max: number): Promise<Uint8Array | undefined> {
  const declared = req.headers.get("content-length");
  if (declared !== null && !(Number(declared) <= max)) {
    await req.body?.cancel().catch(() => {});
    return undefined;
  }
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.length;
    if (length > max) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.length;
  }
  return body;
}
