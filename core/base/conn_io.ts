/** Closes a connection, listener or file that may be closed already (by an error, or by the other side). */
export function closeQuietly(closable: { close(): void }): void {
  try {
    closable.close();
  } catch { /* closed already */ }
}

/** Writes every byte, however many writes the system splits it into. */
export async function writeAll(
  writer: { write(bytes: Uint8Array): Promise<number> },
  bytes: Uint8Array,
): Promise<void> {
  for (let done = 0; done < bytes.length;) done += await writer.write(bytes.subarray(done));
}
