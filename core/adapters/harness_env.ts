import type { Env } from "./ask_adapter.ts";

/** The variables a proxy is set by: a program an adapter runs keeps them, its only way out in a sandbox. */
export const PROXY_VARS: readonly string[] = [
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
];

/** The variables a harness's launcher keeps for the harness: its locale, temporary folder and proxy. */
export const LAUNCH_KEPT: readonly string[] = ["TMPDIR", "LANG", ...PROXY_VARS];

/** The variables of `env` among `names` that are set. */
export function passedEnv(env: Env, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = env.get(name);
    if (value !== undefined) out[name] = value;
  }
  return out;
}
