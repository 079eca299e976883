/**
 * An attack from inside a setup step's sandbox (SBX-13, SBX-14): a stand-in adapter program whose
 * `install` or `health` tries each way out and writes what it reached to its HOME. Two loopback
 * HTTP servers stand for hosts of the internet, the one the adapter's `internet-hosts` names and
 * another, reached by the step's own proxy through a dialler that connects to them in place of
 * the public addresses it checked; a third loopback server stands for a service of this machine.
 * Run in this process (as root) and by _setup_attack_child.ts (as an ordinary user).
 */
import { dirname, join } from "node:path";
import { LinkPaths } from "../../core/base/mod.ts";
import { runSetupStep } from "../../core/agent/setup/mod.ts";
import type { SandboxIdentity } from "../../core/spec/mod.ts";

/** What the step reached, one line per attempt, and the public addresses its proxy dialled. */
export interface SetupAttack {
  readonly result: string;
  readonly dialled: readonly string[];
}

const ALLOWED = "93.184.216.34";
const OTHER = "93.184.216.35";

const CURL = (url: string) => `curl -s -o /dev/null --max-time 20 -w '%{http_code}' ${url}`;
const TCP = (host: string, port: number) =>
  `bash -c '(exec 3<>/dev/tcp/${host}/${port}) 2>/dev/null && echo open || echo unreachable'`;

/**
 * Runs the attack of `step` in a home of its own under `root` (made for it; an ordinary user's
 * own) and returns what it reached. `lan` is an address of this machine's network, when it has one.
 */
export async function setupAttack(
  step: "install" | "health",
  options: { root: string; identity?: SandboxIdentity; launcher?: readonly string[]; lan?: string },
): Promise<SetupAttack> {
  const serve = (text: string) =>
    Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, () => new Response(text));
  await using allowed = serve("allowed");
  await using other = serve("other");
  await using machine = serve("machine");
  const port = (s: Deno.HttpServer<Deno.NetAddr>) => s.addr.port;
  const paths = new LinkPaths(options.root);
  const bin = join(options.root, "bin");
  await Deno.mkdir(bin, { recursive: true });
  const adapter = join(bin, "lnk-prober");
  const lines = step === "install"
    ? [
      `echo "allowed host: $(${CURL("http://registry.example/")})"`,
      `echo "other host: $(${CURL("http://other.example/")})"`,
      `echo "loopback service: $(${TCP("127.0.0.1", port(machine))})"`,
      `echo "loopback through the proxy: $(${
        CURL(`http://127.0.0.1:${port(machine)}/`)
      } --proxy "$HTTP_PROXY" --noproxy "")"`,
      ...(options.lan ? [`echo "LAN: $(${TCP(options.lan, port(machine))})"`] : []),
      `echo '{"version":"1.0.0"}' >&3`,
    ]
    : [
      `echo "harness port: $(curl -s --max-time 20 http://127.0.0.1:${port(allowed)}/)"`,
      `echo "other port: $(${TCP("127.0.0.1", port(machine))})"`,
      `echo "proxy variables: \${HTTP_PROXY:-none}"`,
      `echo "internet: $(${CURL("http://registry.example/")})"`,
      `echo "proxy port: $(${TCP("127.0.0.1", 3128)})"`,
      `echo '{"ok":true}' >&3`,
    ];
  await Deno.writeTextFile(
    adapter,
    `#!/bin/bash\ncat >/dev/null\nexec 3>&1 >"$HOME/result" 2>&1\n${lines.join("\n")}\n`,
  );
  await Deno.chmod(adapter, 0o755);
  const dialled: string[] = [];
  const home = step === "install" ? paths.installDir("prober") : join(options.root, "harness-home");
  await runSetupStep({
    paths,
    harness: "prober",
    adapter: { command: [adapter], dir: dirname(adapter) },
    step,
    input: {},
    home,
    // The health check reaches the harness's own port alone: here the "allowed" server's.
    network: step === "install" ? { hosts: ["registry.example"] } : { hosts: [], ports: [port(allowed)] },
    identity: options.identity,
    launcher: options.launcher,
    proxy: {
      resolve: (name) =>
        Promise.resolve(name === "registry.example" ? [ALLOWED] : name === "other.example" ? [OTHER] : []),
      dial: (address, to) => {
        dialled.push(`${address}:${to}`);
        const server = address === ALLOWED ? allowed : address === OTHER ? other : undefined;
        if (!server) return Promise.reject(new Error("the test dials nothing else"));
        return Deno.connect({ hostname: "127.0.0.1", port: port(server) });
      },
      localNetworks: [],
      machineNames: [],
    },
  });
  return { result: await Deno.readTextFile(join(home, "result")), dialled };
}

/** What each attack must find. */
export function expected(step: "install" | "health", lan: boolean): string {
  return step === "install"
    ? [
      "allowed host: 200",
      "other host: 403",
      "loopback service: unreachable",
      "loopback through the proxy: 403",
      ...(lan ? ["LAN: unreachable"] : []),
      "",
    ].join("\n")
    : [
      "harness port: allowed",
      "other port: unreachable",
      "proxy variables: none",
      "internet: 000",
      "proxy port: unreachable",
      "",
    ].join("\n");
}
