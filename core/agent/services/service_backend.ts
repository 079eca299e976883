import type { ServiceNames, ServiceRole } from "./service_names.ts";

/** One service to run: which role, for which agent, with what command line and environment. */
export interface ServiceDefinition {
  readonly role: ServiceRole;
  readonly agentId: string;
  readonly names: ServiceNames;
  readonly description: string;
  /** The full command line (from roleArgv). */
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

/** What a backend knows of a service. */
export interface ServiceState {
  readonly running: boolean;
  readonly pid?: number;
  /** The service was started and is gone: it died (or was killed) without a stop. */
  readonly died?: boolean;
  /** When it was started (ISO), where the backend knows. */
  readonly started?: string;
}

/** One interface, three backends: systemd --user, launchd, a detached process group. */
export interface ServiceBackend {
  readonly kind: "systemd" | "launchd" | "detached";
  /** Installs and starts the service, and waits until its role says it is ready. */
  start(service: ServiceDefinition): Promise<ServiceState & { ready: Record<string, unknown> }>;
  /** Stops the service and waits until it is gone. */
  stop(names: ServiceNames): Promise<void>;
  status(names: ServiceNames): Promise<ServiceState>;
  /** The service's log, last lines first trimmed to `lines`. */
  logs(names: ServiceNames, lines: number): Promise<string>;
  /** Removes what start installed (unit files, pid and log files). */
  remove(names: ServiceNames): Promise<void>;
}
