import { join } from "node:path";
import { homeFrom, LinkError } from "../base/mod.ts";
import type { Env } from "./ask_adapter.ts";
import type { AdapterInput } from "./contract.ts";

/**
 * The contract of an outside harness Link ships an adapter for in lnk: installed and configured by
 * its adapter, its endpoint under the hub answering the proof and the agent named (ADP-4, ADP-8).
 */
export const SHIPPED_CONTRACT = {
  version: 2,
  commands: [
    "contract",
    "needs",
    "internet-hosts",
    "connections",
    "endpoint",
    "state",
    "configure",
    "install",
    "health",
  ],
  fields: ["proof", "agent"],
} as const;

/** What each such adapter reads of its input and Link's layout, named for its harness. */
export interface ShippedParts {
  /** The install folder the input names, else where Link installs the harness on this machine. */
  installOf(input: AdapterInput, env: Env): string;
  /** The agent's harness home as Link keeps it, seen from outside its sandbox. */
  harnessHome(agentId: string, env: Env): string;
  /** The agent of the input, which the command needs: a USAGE error naming the adapter without it. */
  agentOf(input: AdapterInput): NonNullable<AdapterInput["agent"]>;
  /** The model the hub hands (OPENAI_BASE_URL, OPENAI_MODEL): CONFIG_INVALID without one. */
  modelFromEnv(env: Env): { baseUrl: string; model: string };
}

/** The parts of the adapter of `harness`, its errors naming the harness by its `title`. */
export function shippedParts(harness: string, title: string): ShippedParts {
  return {
    installOf: (input, env) => input.install ?? join(homeFrom(env), ".lnk", "installs", harness),
    harnessHome: (agentId, env) => join(homeFrom(env), ".lnk", "agents", agentId, "harnesses", harness),
    agentOf(input) {
      if (input.agent) return input.agent;
      throw new LinkError("USAGE", `${title}'s adapter needs the agent in its input for this command`, {
        hint: 'Give it as a JSON line on stdin: {"agent": {...}} (docs/adapters.md)',
      });
    },
    modelFromEnv(env) {
      const baseUrl = env.get("OPENAI_BASE_URL");
      const model = env.get("OPENAI_MODEL");
      if (baseUrl && model) return { baseUrl, model };
      throw new LinkError("CONFIG_INVALID", `${title}'s configure was given no model`, {
        hint: 'Give it as {"model": {"baseUrl": "...", "model": "..."}} in its input (docs/adapters.md)',
      });
    },
  };
}

/** What a launcher with a port of its own is started with: `--install`, `--port`, each `--allow`. */
export interface LaunchArgs {
  readonly install: string;
  readonly port: number;
  readonly allowed: string[];
}

/**
 * `lnk harness launch <harness> --install <folder> --port <n> [--allow <risk>]...`, as its adapter's
 * `endpoint` answered it: USAGE, naming the harness by its `title`, without an absolute folder and
 * a port.
 */
export function parseLaunchArgs(args: readonly string[], harness: string, title: string): LaunchArgs {
  let install: string | undefined;
  let port: number | undefined;
  const allowed: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const value = args[i + 1];
    if (args[i] === "--install" && value) install = args[++i];
    else if (args[i] === "--port" && value) port = Number(args[++i]);
    else if (args[i] === "--allow" && value) allowed.push(args[++i]!);
  }
  if (!install?.startsWith("/") || !port || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new LinkError(
      "USAGE",
      `lnk harness launch ${harness} needs --install <absolute folder> and --port <port>`,
      { hint: `It is ${title}'s endpoint, started by the hub from its adapter's \`endpoint\` answer` },
    );
  }
  return { install, port, allowed };
}
