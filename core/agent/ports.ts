/** Agents' ports come in blocks of ten (U-4): offset 0 the endpoint, 1 the proxy, 2 webhooks. */
export const BLOCK_SIZE = 10;
/** Each user's agents allocate from here (PRT-3). */
export const BLOCK_FROM = 20000;
/** A moved block lies wholly below this, out of the ephemeral range (PRT-5). */
export const MOVED_BELOW = 32768;

/** Whether nothing on this machine holds the port on the loopback or any address. */
export function isPortFree(port: number): boolean {
  for (const hostname of ["127.0.0.1", "0.0.0.0"]) {
    try {
      Deno.listen({ hostname, port }).close();
    } catch {
      return false;
    }
  }
  return true;
}

/** The ports of a block. */
export function blockPorts(block: number): number[] {
  return Array.from({ length: BLOCK_SIZE }, (_, i) => block + i);
}

/** The first block from 20000 that overlaps none of `taken` and whose ports are all free now. */
export function firstFreeBlock(
  taken: ReadonlySet<number>,
  options: { free?: (port: number) => boolean } = {},
): number {
  const free = options.free ?? isPortFree;
  for (let block = BLOCK_FROM; block + BLOCK_SIZE <= MOVED_BELOW; block += BLOCK_SIZE) {
    const ports = blockPorts(block);
    if (ports.some((p) => taken.has(p))) continue;
    if (ports.every(free)) return block;
  }
  return randomFreeBlock(taken, options);
}

/**
 * A free block picked at random below 32768 (PRT-5), so two users moving at once rarely land on
 * the same one.
 */
export function randomFreeBlock(
  taken: ReadonlySet<number>,
  options: { free?: (port: number) => boolean; random?: () => number } = {},
): number {
  const free = options.free ?? isPortFree;
  const random = options.random ?? Math.random;
  const slots = (MOVED_BELOW - BLOCK_FROM) / BLOCK_SIZE - 1;
  for (let tries = 0; tries < 1000; tries++) {
    const block = BLOCK_FROM + Math.floor(random() * slots) * BLOCK_SIZE;
    const ports = blockPorts(block);
    if (ports.some((p) => taken.has(p))) continue;
    if (ports.every(free)) return block;
  }
  throw new Error("no free block of ports below 32768");
}
