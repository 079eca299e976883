import { LinkError } from "../../base/mod.ts";

/** The two services of an agent (ARCHITECTURE.md section 1). */
export type ServiceRole = "agent" | "bridge";

/** A service's names under each manager, all from the agent's ID (IDN-1). */
export interface ServiceNames {
  /** The base name, also the detached backend's pid and log file name. */
  readonly base: string;
  readonly systemd: string;
  readonly launchd: string;
}

/** The names of an agent's service: `lnk-agent-<id>.service`, `link.agent.<id>` and so on. */
export function serviceNames(role: ServiceRole, id: string): ServiceNames {
  return { base: `lnk-${role}-${id}`, systemd: `lnk-${role}-${id}.service`, launchd: `link.${role}.${id}` };
}

/**
 * The shared bridge's names (PRC-6, PRC-16): one service for every agent of the machine, named for
 * none of them.
 */
export const SHARED_BRIDGE_NAMES: ServiceNames = {
  base: "lnk-bridges",
  systemd: "lnk-bridges.service",
  launchd: "link.bridges",
};

/** Refuses a service a harness claims under Link's own names (IDN-2). */
export function checkHarnessServiceName(name: string): void {
  if (/^(link\.|lnk-)/i.test(name)) {
    throw new LinkError(
      "REFUSED",
      `Cannot let a harness claim the service "${name}": names starting "link." or "lnk-" are Link's`,
      {
        hint: "Ask the harness's adapter to name its service another way",
      },
    );
  }
}
