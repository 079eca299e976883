import { join } from "node:path";
import { isLinkError, LinkError, logger } from "../../base/mod.ts";
import { configureDsh, DSH_HOME_DIR, KEY_VARIABLE, PLACEHOLDER_KEY } from "./dsh_config.ts";
import { dshProgram, installPath } from "./dsh_install.ts";
import { LAUNCH_KEPT, passedEnv } from "../harness_env.ts";
import { writeLiveMark } from "../live_mark.ts";

const log = logger("deepseek");

/** Written by the launcher while `dsh --profile acp` runs in the sandbox, removed when it ends. */
export const LIVE_FILE = ".lnk/dsh_live.json";

/** The words after `dsh` that serve ACP on stdio: dsh's `acp` profile (automation only). */
export const ACP_ARGS: readonly string[] = ["--profile", "acp"];

/**
 * `lnk harness launch deepseek --install <folder>`: DeepSeek Harness's endpoint inside the agent's
 * sandbox, run by the hub as its stdio ACP command. Link's install step has
 * run; the model's address is known only here, so it configures dsh first from the model the hub hands it (idempotent, writing nothing when the hash
 * matches), then runs `dsh --profile acp` on this process's stdio, its HOME the harness home and
 * its DSH_HOME `.dsh` in it, and marks the harness home while it runs so `health` outside can tell.
 */
export async function runDshLaunchRole(args: string[], signal: AbortSignal): Promise<number> {
  const install = parseArgs(args);
  const home = Deno.env.get("HOME");
  if (!home) {
    throw new LinkError("CONFIG_INVALID", "lnk harness launch deepseek needs HOME, the harness home");
  }
  const baseUrl = Deno.env.get("OPENAI_BASE_URL");
  const model = Deno.env.get("OPENAI_MODEL");
  if (!baseUrl || !model) {
    throw new LinkError(
      "CONFIG_INVALID",
      "DeepSeek Harness has no model: the hub handed it no OPENAI_BASE_URL",
      {
        hint:
          "Give the agent a model: `lnk agent create <name> --harness deepseek --model-url <url> --model <m>`",
      },
    );
  }
  try {
    const configured = await configureDsh({ install, home, model: { baseUrl, model } });
    if (configured.changed) log.info("Configured DeepSeek Harness", { wrote: configured.wrote });
  } catch (err) {
    // Said on stderr, which the hub reads as the program's last words: its stdout is ACP's alone.
    const said = isLinkError(err) ? `${err.message}. ${err.hint ?? ""}`.trim() : String(err);
    await Deno.stderr.write(new TextEncoder().encode(`${said}\n`));
    return 1;
  }
  const env: Record<string, string> = {
    HOME: home,
    DSH_HOME: join(home, DSH_HOME_DIR),
    PATH: installPath(install),
    // The hub's key variable: the placeholder the proxy replaces (SBX-17), or the key it holds.
    [KEY_VARIABLE]: Deno.env.get(KEY_VARIABLE) ?? PLACEHOLDER_KEY,
  };
  Object.assign(env, passedEnv(Deno.env, LAUNCH_KEPT));
  const dsh = new Deno.Command(dshProgram(install), {
    args: [...ACP_ARGS],
    env,
    clearEnv: true,
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  const stop = () => {
    try {
      dsh.kill("SIGTERM");
    } catch { /* it ended */ }
  };
  signal.addEventListener("abort", stop, { once: true });
  try {
    // What `health` reads from outside the sandbox, where dsh's stdio is the hub's alone.
    await writeLiveMark(join(home, LIVE_FILE));
    return (await dsh.status).code;
  } finally {
    signal.removeEventListener("abort", stop);
    await Deno.remove(join(home, LIVE_FILE)).catch(() => {});
    stop();
  }
}

function parseArgs(args: string[]): string {
  let install: string | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--install" && args[i + 1]) install = args[++i];
  }
  if (!install?.startsWith("/")) {
    throw new LinkError("USAGE", "lnk harness launch deepseek needs --install <absolute folder>", {
      hint: "It is DeepSeek Harness's endpoint, started by the hub from its adapter's `endpoint` answer",
    });
  }
  return install;
}
