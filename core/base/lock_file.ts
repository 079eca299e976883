/** A lock held until released or disposed; releasing twice is harmless. */
export interface HeldLock extends Disposable {
  release(): void;
}

/**
 * Holds an exclusive lock on a file until disposed, so two `lnk` commands changing one file at
 * once never lose each other's change (each reads, changes and writes under it). The kernel lets
 * go when the holder dies, so a crashed command never blocks the next one. With `note`, the
 * holder writes in the file what it does, for lockNote.
 */
export async function lockFile(path: string, note?: string): Promise<HeldLock> {
  const file = await Deno.open(path, { create: true, write: true, mode: 0o600 });
  try {
    await file.lock(true);
    if (note !== undefined) await writeNote(file, note);
  } catch (err) {
    file.close();
    throw err;
  }
  return held(file);
}

/**
 * Takes the lock without waiting: undefined when another holds it. The holder writes `note` in
 * the file (what it does), so one that finds the lock held can say who holds it.
 */
export async function tryLockFile(path: string, note: string): Promise<HeldLock | undefined> {
  const file = await Deno.open(path, { create: true, read: true, write: true, mode: 0o600 });
  try {
    if (!(await file.tryLock(true))) {
      file.close();
      return undefined;
    }
    await writeNote(file, note);
  } catch (err) {
    file.close();
    throw err;
  }
  return held(file);
}

/** What the lock's last holder wrote of what it does; "" when none wrote anything. */
export async function lockNote(path: string): Promise<string> {
  try {
    return await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return "";
    throw err;
  }
}

async function writeNote(file: Deno.FsFile, note: string): Promise<void> {
  await file.truncate(0);
  await file.seek(0, Deno.SeekMode.Start);
  const bytes = new TextEncoder().encode(note);
  let offset = 0;
  while (offset < bytes.length) offset += await file.write(bytes.subarray(offset));
}

function held(file: Deno.FsFile): HeldLock {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    try {
      file.unlockSync();
    } finally {
      file.close();
    }
  };
  return { release, [Symbol.dispose]: release };
}
