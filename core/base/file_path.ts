/**
 * POSIX path joining as `node:path` does it, without `node:path`: the first `node:` import costs a
 * process Node's compatibility layer (about 15 ms), which a woken harness waits on (PRC-13).
 */

/** Joins path segments and normalizes the result, as `node:path`'s `join` (POSIX). */
export function joinPath(...parts: string[]): string {
  const joined = parts.filter((p) => p.length > 0).join("/");
  return joined.length === 0 ? "." : normalizePath(joined);
}

/** The folder part of a path, as `node:path`'s `dirname` (POSIX). */
export function dirnamePath(path: string): string {
  if (path.length === 0) return ".";
  const rooted = path.startsWith("/");
  let end = -1;
  let inTrailingSlashes = true;
  for (let i = path.length - 1; i >= 1; i--) {
    if (path[i] !== "/") inTrailingSlashes = false;
    else if (!inTrailingSlashes) {
      end = i;
      break;
    }
  }
  if (end === -1) return rooted ? "/" : ".";
  if (rooted && end === 1) return "//";
  return path.slice(0, end);
}

/** The path of a `file:` URL, as `node:url`'s `fileURLToPath` on POSIX. */
export function fileUrlPath(url: URL): string {
  if (url.protocol !== "file:") throw new TypeError(`The URL must be of scheme file: ${url.href}`);
  if (url.hostname !== "") throw new TypeError(`File URL host must be "localhost" or empty: ${url.href}`);
  if (/%2f/i.test(url.pathname)) throw new TypeError(`File URL path must not include encoded / characters`);
  return decodeURIComponent(url.pathname);
}

function normalizePath(path: string): string {
  const absolute = path.startsWith("/");
  const trailing = path.endsWith("/");
  const kept: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment !== "..") kept.push(segment);
    else if (kept.length > 0 && kept.at(-1) !== "..") kept.pop();
    else if (!absolute) kept.push("..");
  }
  let out = kept.join("/");
  if (out.length === 0) return absolute ? "/" : trailing ? "./" : ".";
  if (trailing) out += "/";
  return absolute ? `/${out}` : out;
}
