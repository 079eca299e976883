import { z } from "zod";
import { atomicWrite, type LinkPaths, readTextIfExists } from "../../base/mod.ts";

/**
 * A finished install of an outside harness, `~/.lnk/installs/<harness>.installed`, written by Link
 * after its adapter's `install` succeeded, beside the install folder and never in it, so nothing a
 * half-written install leaves counts: the harness's release it answered, and the adapter program
 * it was installed by (a rebuilt adapter installs again).
 */
export const InstallMarker = z.strictObject({
  release: z.string(),
  adapter: z.string(),
});
export type InstallMarker = z.infer<typeof InstallMarker>;

/** Where a harness's marker is. */
export function markerPath(paths: LinkPaths, harness: string): string {
  return `${paths.installDir(harness)}.installed`;
}

/** The marker of a finished install, or undefined when there is none or it does not read. */
export async function readInstallMarker(
  paths: LinkPaths,
  harness: string,
): Promise<InstallMarker | undefined> {
  const text = await readTextIfExists(markerPath(paths, harness));
  if (text === undefined) return undefined;
  try {
    const parsed = InstallMarker.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Writes the marker, whole or not at all. */
export async function writeInstallMarker(
  paths: LinkPaths,
  harness: string,
  marker: InstallMarker,
): Promise<void> {
  await atomicWrite(markerPath(paths, harness), `${JSON.stringify(marker)}\n`);
}

/** Removes the marker before an install runs: a failed one leaves none. */
export async function removeInstallMarker(paths: LinkPaths, harness: string): Promise<void> {
  await Deno.remove(markerPath(paths, harness)).catch((err) => {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  });
}
