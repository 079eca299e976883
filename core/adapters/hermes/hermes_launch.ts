import { join } from "node:path";
import { LinkError, logger, Secret } from "../../base/mod.ts";
import { configureHermes, HERMES_DIR } from "./hermes_config.ts";
import { installBin, installPath } from "./hermes_install.ts";
import { LAUNCH_KEPT, passedEnv } from "../harness_env.ts";
import { parseLaunchArgs } from "../shipped_adapter.ts";

const log = logger("hermes");

/** How long `hermes acp` is given to end once asked to stop. */
const STOP_MS = 10_000;

/**
 * `lnk harness launch hermes --install <folder> --port <n> [--allow <risk>]...`: Hermes's endpoint
 * inside the agent's sandbox, run by the hub as its stdio ACP command. Link's setup steps have
 * installed Hermes; the model's address is known only here, so it configures Hermes first from the model the hub hands it
 * (idempotent: nothing is written while the hash matches), then runs `hermes acp` from the install
 * folder on this process's stdio with HERMES_HOME the harness home's `.hermes`, so Hermes reads the
 * model, the key the hub handed (Link's placeholder, unless the harness holds its key) and its port
 * from the files configure wrote and from nothing else: the hub's model variables are not passed on.
 */
export async function runHermesLaunchRole(args: string[], signal: AbortSignal): Promise<number> {
  const launch = parseLaunchArgs(args, "hermes", "Hermes");
  const home = Deno.env.get("HOME");
  if (!home) throw new LinkError("CONFIG_INVALID", "lnk harness launch hermes needs HOME, the harness home");
  const baseUrl = Deno.env.get("OPENAI_BASE_URL");
  const model = Deno.env.get("OPENAI_MODEL");
  // The key the hub hands: Link's placeholder when the proxy adds it (SBX-17).
  const key = Deno.env.get("OPENAI_API_KEY");
  if (!baseUrl || !model) {
    throw new LinkError("CONFIG_INVALID", "Hermes has no model: the hub handed it no OPENAI_BASE_URL", {
      hint:
        "Give the agent a model: `lnk agent create <name> --harness hermes --model-url <url> --model <m>`",
    });
  }
  const configured = await configureHermes({
    install: launch.install,
    home,
    port: launch.port,
    model: { baseUrl, model },
    allowed: launch.allowed,
    key: key ? new Secret(key) : undefined,
  });
  if (configured.changed) log.info("Configured Hermes", { wrote: configured.wrote });
  const env: Record<string, string> = {
    HOME: home,
    HERMES_HOME: join(home, HERMES_DIR),
    PATH: installPath(launch.install),
  };
  Object.assign(env, passedEnv(Deno.env, LAUNCH_KEPT));
  const acp = new Deno.Command(join(installBin(launch.install), "hermes"), {
    args: ["acp"],
    cwd: home,
    env,
    clearEnv: true,
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const kill = (how: Deno.Signal) => {
    try {
      acp.kill(how);
    } catch { /* it ended */ }
  };
  const stop = () => {
    kill("SIGTERM");
    timer = setTimeout(() => kill("SIGKILL"), STOP_MS);
  };
  signal.addEventListener("abort", stop, { once: true });
  try {
    return (await acp.status).code;
  } finally {
    signal.removeEventListener("abort", stop);
    clearTimeout(timer);
  }
}
