// deno-lint-ignore-file no-console -- an install step run by a person: what it says is its whole output.
/**
 * `deno task install-lnk [--root <dir>] [--name lnk] [--json]`: installs `lnk` from this checkout with
 * exactly what deno.lock pins. First Deno's cache is filled from the lock (`deno install --frozen`:
 * every package deno.json names, the ones roles load by dynamic import included), then a shim is
 * written to `<root>/bin/lnk` that runs the same command line every role runs (sourceArgv), so `lnk`
 * and its roles read the same versions and nothing is fetched as either starts. Why not
 * `deno install -g`: it resolves afresh into a lock of its own (docs/architecture.md, "Installing").
 * @module
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { CHECKOUT_DIR } from "../core/base/checkout.ts";
import { roleEnv, sourceArgv } from "../core/base/role.ts";

const USAGE = "deno task install-lnk [--root <dir>] [--name lnk] [--json]";

/**
 * The shim's text: Deno's cache (and the npm registry it was filled from, when one was set) pinned as
 * at the install, then the one command line of sourceArgv.
 */
export function shimText(argv: readonly string[], denoDir: string, registry?: string): string {
  const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;
  return [
    "#!/bin/sh",
    `# Written by \`deno task install-lnk\` in ${CHECKOUT_DIR}: Link from that checkout, as deno.lock pins it.`,
    `# Run that command again there after a pull. Link's roles run this same command line.`,
    `DENO_DIR=${quote(denoDir)}`,
    "export DENO_DIR",
    ...(registry ? [`NPM_CONFIG_REGISTRY=${quote(registry)}`, "export NPM_CONFIG_REGISTRY"] : []),
    `exec ${argv.map(quote).join(" ")} "$@"`,
    "",
  ].join("\n");
}

async function main(args: string[]): Promise<number> {
  let flags;
  try {
    flags = parseArgs({
      args,
      options: { root: { type: "string" }, name: { type: "string" }, json: { type: "boolean" } },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (err) {
    console.error(`error: ${(err as Error).message}\n  hint: ${USAGE}`);
    return 2;
  }
  const env = Deno.env.toObject();
  const root = flags.root ?? env.DENO_INSTALL_ROOT ?? join(env.HOME ?? ".", ".deno");
  const name = flags.name ?? "lnk";
  if (!/^[A-Za-z0-9._-]+$/.test(name)) {
    console.error(
      `error: Cannot install as "${name}": a name is letters, digits, ".", "_" or "-"\n  hint: ${USAGE}`,
    );
    return 2;
  }
  // roleEnv names the cache a role would read; the shim pins it, whatever HOME is later.
  const { DENO_DIR: denoDir = "", NPM_CONFIG_REGISTRY: registry } = roleEnv();
  console.error(`Caching what deno.lock pins into ${denoDir}...`);
  const cached = await new Deno.Command(Deno.execPath(), {
    args: ["install", "--frozen"],
    cwd: CHECKOUT_DIR,
    env: { DENO_DIR: denoDir }, // NPM_CONFIG_REGISTRY, HOME's .npmrc and the rest pass as they are
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!cached.success) {
    console.error(
      "error: Cannot cache what deno.lock pins: `deno install --frozen` failed (above)\n" +
        "  hint: The npm registry must be reachable (npm's own settings, such as NPM_CONFIG_REGISTRY, apply)",
    );
    return 1;
  }
  const bin = join(root, "bin");
  const shim = join(bin, name);
  await Deno.mkdir(bin, { recursive: true });
  const temp = `${shim}.${crypto.randomUUID()}.tmp`;
  await Deno.writeTextFile(temp, shimText(sourceArgv(), denoDir, registry), { mode: 0o755 });
  await Deno.chmod(temp, 0o755);
  await Deno.rename(temp, shim);
  const onPath = (env.PATH ?? "").split(":").includes(bin);
  if (flags.json) console.log(JSON.stringify({ installed: shim, checkout: CHECKOUT_DIR, deno_dir: denoDir }));
  else console.log(`Installed ${shim}: Link from ${CHECKOUT_DIR}, with the versions deno.lock pins`);
  if (!onPath) console.error(`note: ${bin} is not on your PATH; add it, or run ${shim}`);
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
