import { join } from "node:path";
import { homeFrom, roleArgv, roleEnv } from "../../base/mod.ts";
import type { BuiltInAdapter } from "../ask_adapter.ts";
import { configureOpenClaw, LIVE_FILE, NO_KEY } from "./openclaw_config.ts";
import { readLiveMark } from "../live_mark.ts";
import { npmRegistryHost, npmStepEnv } from "../npm.ts";
import { installedVersion, installOpenClaw, installPath } from "./openclaw_install.ts";
import { gatewayHealth, runOpenClawLaunchRole } from "./openclaw_launch.ts";
import { SHIPPED_CONTRACT, shippedParts } from "../shipped_adapter.ts";

// Its install folder, harness home, agent and model, as every adapter Link ships reads them.
const { installOf, harnessHome, agentOf, modelFromEnv } = shippedParts("openclaw", "OpenClaw");

/** The risk of OpenClaw's managed browser: off unless a person allows it in a terminal. */
export const BROWSER_RISK = "managed-browser";

/**
 * OpenClaw's adapter, built in (ADP-1..3, ADP-6, ADP-9, ADP-12, ADP-13): OpenClaw 2026.9.x on the
 * Node 24 npm supplies, installed once per machine in the install folder and run read-only from
 * there; configured in the harness home for the agent's model and port; its endpoint `openclaw
 * acp` under the hub, brought up with its gateway on the agent's port by `lnk harness launch openclaw`
 * in the same sandbox. It speaks no connection itself that Link does not carry: with an endpoint,
 * every connection Link carries reaches it (ADP-6).
 */
export const openclawAdapter: BuiltInAdapter = {
  harness: "openclaw",
  launch: runOpenClawLaunchRole,
  stepEnv: npmStepEnv,
  async answer(command, input, env) {
    switch (command) {
      case "contract":
        return SHIPPED_CONTRACT;
      case "internet-hosts": {
        const host = await npmRegistryHost(env);
        return host ? { hosts: [host] } : {};
      }
      case "install": {
        return await installOpenClaw(installOf(input, env), env);
      }
      case "configure": {
        const agent = agentOf(input);
        const model = input.model ?? modelFromEnv(env);
        return await configureOpenClaw({
          install: installOf(input, env),
          home: homeFrom(env),
          port: agent.ports.endpoint,
          model,
          key: env.get("OPENAI_API_KEY") ?? NO_KEY,
          allowed: input.allowed ?? [],
        });
      }
      case "needs":
        return {
          spec: { paths: { read: [installOf(input, env)] } },
          why: {
            paths: "OpenClaw's program and the Node 24 it runs on, read-only where Link installed them",
          },
          confined: true,
          risks: [{
            name: BROWSER_RISK,
            why: "OpenClaw can start and drive a browser of its own, which reaches any page it opens",
            optional: true,
            without: "it answers without a browser",
          }],
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
              "openclaw",
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
        // Its sessions, memory and workspace, and the config and token configure wrote.
        return { paths: [".openclaw", ".lnk"] };
      case "health": {
        const agent = agentOf(input);
        const version = await installedVersion(installOf(input, env));
        if (!version) return { ok: false, detail: `OpenClaw is not installed in ${installOf(input, env)}` };
        const direct = await gatewayHealth(agent.ports.endpoint);
        if (direct.ok) return direct;
        // Outside the sandbox the port is not the gateway's: the launcher's mark says it is live.
        // A file the harness can write: read to its schema, else not live.
        const live = await readLiveMark(join(harnessHome(agent.id, env), LIVE_FILE));
        if (!live) return { ok: false, detail: `OpenClaw's gateway is not live: ${direct.detail}` };
        if (live === "unreadable") return { ok: false, detail: "OpenClaw's live mark does not read" };
        return { ok: true, detail: `gateway live in the sandbox on port ${live.port} since ${live.since}` };
      }
      default:
        return {};
    }
  },
};
