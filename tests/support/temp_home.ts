import { LinkPaths, roleEnv } from "../../core/base/mod.ts";
import { services } from "../../core/agent/mod.ts";

/** An environment as Link reads it. */
export interface TestEnv {
  get(name: string): string | undefined;
  toObject(): Record<string, string>;
  set(name: string, value: string): void;
}

/** A temporary HOME: every Link path under it, and anything started under it stopped at dispose. */
export interface TempHome extends AsyncDisposable {
  readonly path: string;
  readonly paths: LinkPaths;
  readonly env: TestEnv;
}

/** Makes an environment map with the given variables. */
export function testEnv(vars: Record<string, string>): TestEnv {
  const map = new Map(Object.entries(vars));
  return {
    get: (name) => map.get(name),
    toObject: () => Object.fromEntries(map),
    set: (name, value) => void map.set(name, value),
  };
}

/** Makes a temporary home with the detached service backend, Deno's cache kept where it is. */
export async function tempHome(): Promise<TempHome> {
  const path = await Deno.makeTempDir({ prefix: "lnk-home-" });
  const env = testEnv({
    HOME: path,
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    LNK_SERVICES: "detached",
    ...roleEnv(),
  });
  return {
    path,
    paths: new LinkPaths(path),
    env,
    async [Symbol.asyncDispose]() {
      await stopEverything(new LinkPaths(path));
      await Deno.remove(path, { recursive: true }).catch(() => {});
    },
  };
}

/** Stops every service a test left running under this home, reaping what this process started. */
async function stopEverything(paths: LinkPaths): Promise<void> {
  let entries: Deno.DirEntry[] = [];
  try {
    entries = await Array.fromAsync(Deno.readDir(paths.run));
  } catch {
    return;
  }
  const backend = services.detachedBackend(paths);
  for (const entry of entries.filter((e) => e.name.endsWith(".pid"))) {
    const base = entry.name.slice(0, -".pid".length);
    await backend.stop({ base, systemd: `${base}.service`, launchd: base });
  }
}
