import { join } from "node:path";
import { homeFrom, roleArgv, roleEnv } from "../../base/mod.ts";
import type { BuiltInAdapter } from "../ask_adapter.ts";
import { configureDsh, DSH_HOME_DIR } from "./dsh_config.ts";
import { readLiveMark } from "../live_mark.ts";
import { npmRegistryHost, npmStepEnv } from "../npm.ts";
import { installDsh, installedVersion, installPath } from "./dsh_install.ts";
import { LIVE_FILE, runDshLaunchRole } from "./dsh_launch.ts";
import { SHIPPED_CONTRACT, shippedParts } from "../shipped_adapter.ts";

// Its install folder, harness home, agent and model, as every adapter Link ships reads them.
const { installOf, harnessHome, modelFromEnv } = shippedParts("deepseek", "DeepSeek Harness");

/**
 * DeepSeek Harness's adapter, built in (ADP-1, ADP-2, ADP-6, ADP-9, ADP-12, ADP-13): `dsh` from npm
 * on the Node 24 npm supplies, installed once per machine in the install folder and run read-only
 * from there; configured in the harness home for the agent's model (an OpenAI-compatible provider
 * route whose key is a placeholder the proxy replaces); its endpoint `dsh --profile acp` on stdio
 * under the hub, brought up by `lnk harness launch deepseek` in the agent's sandbox. It speaks no
 * connection itself: with an endpoint, every connection Link carries reaches it (ADP-6).
 */
export const deepseekAdapter: BuiltInAdapter = {
  harness: "deepseek",
  launch: runDshLaunchRole,
  stepEnv: npmStepEnv,
  async answer(command, input, env) {
    switch (command) {
      case "contract":
        return SHIPPED_CONTRACT;
      case "internet-hosts": {
        const host = await npmRegistryHost(env);
        return host ? { hosts: [host] } : {};
      }
      case "install":
        return await installDsh(installOf(input, env), env);
      case "configure":
        return await configureDsh({
          install: installOf(input, env),
          home: homeFrom(env),
          model: input.model ?? modelFromEnv(env),
        });
      case "needs":
        // Its tools run inside the sandbox as any program there does: no door beyond the defaults.
        return {
          spec: { paths: { read: [installOf(input, env)] } },
          why: {
            paths:
              "DeepSeek Harness's program and the Node 24 it runs on, read-only where Link installed them",
          },
          confined: true,
        };
      case "connections":
        // It has an endpoint: the connections Link carries reach it, and it needs none of its own.
        return { connections: [] };
      case "endpoint": {
        const install = installOf(input, env);
        return {
          stdio: {
            command: roleArgv(["harness", "launch", "deepseek", "--install", install]),
            env: { ...roleEnv(), PATH: installPath(install) },
          },
        };
      }
      case "state":
        // Its sessions, settings and credentials document (.dsh), and what configure wrote (.lnk).
        return { paths: [DSH_HOME_DIR, ".lnk"] };
      case "health": {
        const install = installOf(input, env);
        const version = await installedVersion(install);
        if (!version) return { ok: false, detail: `DeepSeek Harness is not installed in ${install}` };
        if (!input.agent) return { ok: true, detail: `dsh ${version} installed` };
        // Its endpoint is stdio under the hub: the launcher's mark says it runs in the sandbox.
        // A file the harness can write: read to its schema, else not live.
        const live = await readLiveMark(join(harnessHome(input.agent.id, env), LIVE_FILE));
        if (!live) {
          return { ok: false, detail: `dsh ${version} is installed but its ACP endpoint is not running` };
        }
        if (live === "unreadable") return { ok: false, detail: `dsh ${version}'s live mark does not read` };
        return { ok: true, detail: `dsh ${version} serving ACP in the sandbox since ${live.since}` };
      }
      default:
        return {};
    }
  },
};
