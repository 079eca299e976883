/**
 * Holds an exclusive lock on a file until disposed, so two `lnk` commands changing one file at
 * once never lose each other's change (each reads, changes and writes under it).
 */
export async function lockFile(path: string): Promise<Disposable> {
  const file = await Deno.open(path, { create: true, write: true, mode: 0o600 });
  await file.lock(true);
  return {
    [Symbol.dispose]() {
      try {
        file.unlockSync();
      } finally {
        file.close();
      }
    },
  };
}
