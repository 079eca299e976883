import type { SandboxSpec } from "../../../sandbox/mod.ts";
import type { CheckSetup } from "./check_setup.ts";
import type { ModelWiring } from "./model_keys.ts";
import { modelKeyCheck } from "./model_key_check.ts";
import type { Probe, ProbeAnswer } from "./probe_protocol.ts";
import type { PlannedCheck } from "./planned_check.ts";
import { proxyOutcome } from "./proxy_outcome.ts";

/** What the network checks know of this machine. */
export interface NetworkFacts {
  /** An address of this machine on its network (the LAN side), if it has one. */
  readonly lanAddress?: string;
  /** The user's id, for the sockets under /run/user. */
  readonly uid: number;
}

/** A private address no grant names: a stand-in for the rest of your network. */
const PRIVATE_HOST = "192.168.1.1";
/** A public address reached without the proxy: only the network as it is could. */
const PUBLIC_ADDRESS = "1.1.1.1";

/**
 * The network checks of `lnk agent harness check` (SBX-2, SBX-7, SBX-8, SBX-9, SBX-11, SBX-16):
 * the internet through its proxy, and nothing else: not this machine's ports (directly or through
 * the proxy), not your network, no interface but loopback, no browser or display sockets, its
 * model key a placeholder. In host mode the gaps it opens are rows of their own, marked as gaps.
 */
export function planNetworkChecks(
  setup: CheckSetup,
  spec: SandboxSpec,
  wiring: ModelWiring,
  facts: NetworkFacts,
): PlannedCheck[] {
  const host = spec.network.mode === "host";
  const localPort = setup.listen("127.0.0.1");
  const lanPort = facts.lanAddress ? setup.listen("0.0.0.0") : undefined;
  const checks: PlannedCheck[] = host ? [] : proxyChecks(spec, localPort, facts, lanPort);
  const open = host ? "open (host mode)" : undefined;
  checks.push(
    direct(
      "other ports of this machine, directly",
      { host: "127.0.0.1", port: localPort },
      open ?? "refused",
    ),
  );
  if (facts.lanAddress && lanPort) {
    checks.push(
      direct("your network, directly", { host: facts.lanAddress, port: lanPort }, open ?? "no route"),
    );
  }
  checks.push(interfacesCheck(host));
  checks.push(
    host ? hostModeInternet() : direct(`${PUBLIC_ADDRESS}:443, ignoring the proxy`, {
      host: PUBLIC_ADDRESS,
      port: 443,
    }, "no route"),
  );
  for (const port of spec.localhost.ports) {
    checks.push(direct(`granted port ${port} ([localhost])`, { host: "127.0.0.1", port }, "connected"));
  }
  checks.push(socketsCheck(facts.uid, host));
  if (host) checks.push(abstractSocketsGap());
  checks.push(modelKeyCheck(wiring));
  return checks;
}

function proxyChecks(
  spec: SandboxSpec,
  localPort: number,
  facts: NetworkFacts,
  lanPort?: number,
): PlannedCheck[] {
  const hosts = spec.internet.hosts;
  const checks: PlannedCheck[] = [];
  const some = hosts.find((h) => h !== "*");
  const target = hosts.includes("*") ? "example.com" : some?.replace(/^\*\./, "www.");
  checks.push(
    target
      ? viaProxy(`the internet through its proxy (${target})`, [`http://${target}/`], "allowed")
      : viaProxy("the internet through its proxy", ["http://example.com/"], "refused"),
  );
  if (!hosts.includes("*")) {
    checks.push(
      viaProxy("a host it does not list, through its proxy", ["http://not-listed.example/"], "refused"),
    );
  }
  checks.push(viaProxy("this machine through its proxy", [
    `http://127.0.0.1:${localPort}/`,
    `http://[::ffff:127.0.0.1]:${localPort}/`,
    `http://localhost:${localPort}/`,
  ], "refused"));
  const lan = [
    `http://${PRIVATE_HOST}/`,
    ...(facts.lanAddress ? [`http://${facts.lanAddress}:${lanPort}/`] : []),
  ];
  checks.push(viaProxy("your network through its proxy", lan, "refused"));
  for (const lanHost of spec.lan.hosts) {
    checks.push(viaProxy(`granted LAN host ${lanHost} ([lan])`, [`http://${lanHost}/`], "allowed"));
  }
  return checks;
}

/** Requests through the proxy; "allowed" when the proxy let each through, "refused" when it refused each. */
function viaProxy(check: string, urls: string[], want: "allowed" | "refused"): PlannedCheck {
  return {
    check,
    expected: want === "allowed" ? "allowed by the proxy" : "refused by the proxy",
    probes: urls.map((url): Probe => ({ kind: "proxy", url })),
    judge(answers) {
      const outcomes = answers.map(proxyOutcome);
      const ok = outcomes.every((o) => o.verdict === want);
      const shown = [...new Set(outcomes.map((o) => o.text))].join("; ");
      return Promise.resolve({ result: shown, ok });
    },
  };
}

/** A connection ignoring the proxy: "connected" and the host mode gaps want it through, the rest want it failing. */
function direct(check: string, to: { host: string; port: number }, expected: string): PlannedCheck {
  const wantsOpen = expected === "connected" || expected.startsWith("open");
  return {
    check,
    expected,
    gap: expected.startsWith("open") || undefined,
    probes: [{ kind: "connect", ...to }],
    judge([answer]) {
      const through = answer?.done ?? false;
      const result = through ? "connected" : failure(answer);
      return Promise.resolve({ result, ok: through === wantsOpen });
    },
  };
}

function failure(answer: ProbeAnswer | undefined): string {
  const detail = answer?.detail ?? "no answer";
  if (detail === "NetworkUnreachable") return "no route";
  if (detail === "ConnectionRefused") return "refused";
  return `failed (${detail})`;
}

function interfacesCheck(host: boolean): PlannedCheck {
  return {
    check: "the network as it is (interfaces)",
    expected: host ? "present (host mode)" : "loopback only",
    gap: host || undefined,
    probes: [{ kind: "interfaces" }],
    judge([answer]) {
      const list = answer?.list ?? [];
      const result = list.length ? `present: ${list.join(", ")}` : "loopback only";
      return Promise.resolve({ result, ok: host ? list.length > 0 : list.length === 0 });
    },
  };
}

function hostModeInternet(): PlannedCheck {
  return {
    check: `${PUBLIC_ADDRESS}:443, with no proxy`,
    expected: "not stopped by the sandbox (host mode)",
    gap: true,
    probes: [{ kind: "connect", host: PUBLIC_ADDRESS, port: 443 }],
    judge([answer]) {
      const result = answer?.done ? "connected" : `${failure(answer)}: this machine's own network decides`;
      return Promise.resolve({ result, ok: true });
    },
  };
}

/** Display, desktop bus and browser debugging sockets: none reachable. */
function socketsCheck(uid: number, host: boolean): PlannedCheck {
  const unix = [
    "/tmp/.X11-unix/X0",
    "/tmp/.X11-unix/X1",
    `/run/user/${uid}/bus`,
    `/run/user/${uid}/wayland-0`,
  ];
  const probes: Probe[] = [
    ...[...unix, "/run/dbus/system_bus_socket"].map((path): Probe => ({ kind: "unix", path })),
    // X11 over TCP and a browser's debugging port: on loopback, unreachable without host mode.
    ...(host ? [] : [6000, 9222].map((port): Probe => ({ kind: "connect", host: "127.0.0.1", port }))),
  ];
  return {
    check: "browser, X11 and D-Bus sockets",
    expected: "none reachable",
    probes,
    judge(answers) {
      const reached = probes.filter((_, i) => answers[i]?.done).map(probeTarget);
      const result = reached.length
        ? `reachable: ${reached.join(", ")}`
        : `none reachable (${probes.length} tried)`;
      return Promise.resolve({ result, ok: reached.length === 0 });
    },
  };
}

function probeTarget(probe: Probe): string {
  if (probe.kind === "unix") return probe.path;
  return probe.kind === "connect" ? `port ${probe.port}` : probe.kind;
}

function abstractSocketsGap(): PlannedCheck {
  return {
    check: "X11's abstract socket and every loopback port",
    expected: "open (host mode)",
    gap: true,
    probes: [],
    judge: () => Promise.resolve({ result: "open: the sandbox shares this machine's network", ok: true }),
  };
}
