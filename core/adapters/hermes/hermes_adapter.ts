import { join } from "node:path";
import { homeFrom, readTextIfExists, roleArgv, roleEnv } from "../../base/mod.ts";
import type { BuiltInAdapter, Env } from "../ask_adapter.ts";
import type { AdapterInput } from "../contract.ts";
import { CONFIG_FILE, configureHermes, ENV_FILE, type HermesSetup } from "./hermes_config.ts";
import {
  HERMES_RELEASE,
  installedVersion,
  installHermes,
  installPath,
  pipIndexHosts,
  pipStepEnv,
} from "./hermes_install.ts";
import { runHermesLaunchRole } from "./hermes_launch.ts";
import { SHIPPED_CONTRACT, shippedParts } from "../shipped_adapter.ts";

// Its install folder, harness home, agent and model, as every adapter Link ships reads them.
const { installOf, harnessHome, agentOf, modelFromEnv } = shippedParts("hermes", "Hermes");

/**
 * Hermes's adapter, built in (ADP-1, ADP-2, ADP-6, ADP-9, ADP-12, ADP-13): Nous Research's
 * hermes-agent, a pinned release pip installs into a venv in the install folder, run read-only from
 * there; configured in the harness home (HERMES_HOME's config.yaml and .env) for the agent's model
 * and port; its endpoint `hermes acp` under the hub, brought up by `lnk harness launch hermes` in
 * the agent's sandbox. It speaks no connection itself that Link does not carry: with an endpoint,
 * every connection Link carries reaches it (ADP-6).
 */
export const hermesAdapter: BuiltInAdapter = {
  harness: "hermes",
  launch: runHermesLaunchRole,
  stepEnv: pipStepEnv,
  async answer(command, input, env) {
    switch (command) {
      case "contract":
        return SHIPPED_CONTRACT;
      case "internet-hosts": {
        const hosts = await pipIndexHosts(env);
        return hosts.length > 0 ? { hosts } : {};
      }
      case "install":
        return await installHermes(installOf(input, env), env);
      case "configure":
        return await configureHermes(setupOf(input, env, input.model ?? modelFromEnv(env)));
      case "needs":
        return {
          spec: { paths: { read: [installOf(input, env)] } },
          why: {
            paths: "Hermes's program and the Python venv it runs in, read-only where Link installed them",
          },
          confined: true,
        };
      case "connections":
        // It has an endpoint: the connections Link carries reach it, and it needs none of its own.
        return { connections: [] };
      case "endpoint": {
        const agent = agentOf(input);
        const install = installOf(input, env);
        const allowed = (input.allowed ?? []).flatMap((risk) => ["--allow", risk]);
        return {
          stdio: {
            command: roleArgv([
              "harness",
              "launch",
              "hermes",
              "--install",
              install,
              "--port",
              String(agent.ports.endpoint),
              ...allowed,
            ]),
            env: { ...roleEnv(), PATH: installPath(install) },
          },
        };
      }
      case "state":
        // Its sessions, memory, skills and the files configure wrote, and Link's marks.
        return { paths: [".hermes", ".lnk"] };
      case "health":
        return await health(input, env);
      default:
        return {};
    }
  },
};

/**
 * Installed, and configured for the agent (its config.yaml names a model, its .env is there): what
 * can be told with no network, as the hub starts `hermes acp` only at the first message.
 */
async function health(input: AdapterInput, env: Env): Promise<{ ok: boolean; detail: string }> {
  const install = installOf(input, env);
  const version = await installedVersion(install);
  if (!version) {
    return {
      ok: false,
      detail:
        `Hermes ${HERMES_RELEASE} is not installed in ${install}: \`lnk harness adapter hermes install --json\` installs it`,
    };
  }
  if (!input.agent) return { ok: true, detail: `Hermes ${version} is installed` };
  const home = harnessHome(input.agent.id, env);
  const config = await readTextIfExists(join(home, CONFIG_FILE));
  const dotEnv = await readTextIfExists(join(home, ENV_FILE));
  if (!config || !/^model:/m.test(config) || dotEnv === undefined) {
    return { ok: false, detail: `Hermes ${version} is installed but not configured: start the agent` };
  }
  return { ok: true, detail: `Hermes ${version} is installed and configured in ${home}` };
}

function setupOf(
  input: AdapterInput,
  env: Env,
  model: { baseUrl: string; model: string },
): HermesSetup {
  return {
    install: installOf(input, env),
    home: homeFrom(env),
    port: agentOf(input).ports.endpoint,
    model,
    allowed: input.allowed ?? [],
  };
}
