/**
 * A regular file's bytes, read through a descriptor checked to be the very file `lstat` saw (its
 * inode and device), so a link swapped in is never read through; undefined when it is gone, is
 * not a regular file, changed into something else meanwhile (`changed` true), or is over `max`.
 */
export async function readRegularFile(
  path: string,
  max: number,
): Promise<{ bytes?: Uint8Array; changed?: boolean }> {
  let before: Deno.FileInfo;
  try {
    before = await Deno.lstat(path);
  } catch {
    return {};
  }
  if (!before.isFile || before.size > max) return {};
  let opened: Deno.FsFile;
  try {
    opened = await Deno.open(path, { read: true });
  } catch {
    return {};
  }
  try {
    const info = await opened.stat();
    if (!info.isFile || info.ino !== before.ino || info.dev !== before.dev) return { changed: true };
    if (info.size > max) return {};
    const buf = new Uint8Array(info.size);
    let read = 0;
    while (read < buf.length) {
      const n = await opened.read(buf.subarray(read));
      if (n === null) break;
      read += n;
    }
    return { bytes: buf.subarray(0, read) };
  } finally {
    opened.close();
  }
}
