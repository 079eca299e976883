import type { HarnessPolicy } from "../grants/mod.ts";

/**
 * Why an agent keeps a sandbox of its own under `shared_harness = true`, or undefined when the
 * shared harness may serve it (PRC-3): only Link Harness, sandboxed, reaching nothing but through
 * its own proxy. A granted path, team folder, LAN host or port of this machine's loopback, or
 * the machine's own network, would be seen by every agent in the shared sandbox.
 */
export function sharedRefusal(policy: Pick<HarnessPolicy, "agent" | "spec">): string | undefined {
  const { agent, spec } = policy;
  if (!agent.sandbox.enabled) return "its sandbox is off";
  if (agent.harness !== "link") return `it runs the ${agent.harness} harness, not Link Harness`;
  if (spec.network.mode !== "proxy") {
    return 'it reaches the network as this machine does ([network] mode = "host")';
  }
  if (spec.lan.hosts.length > 0) return "it reaches hosts of the local network ([lan])";
  if (spec.localhost.ports.length > 0) return "it reaches ports of this machine ([localhost])";
  if (spec.paths.read.length + spec.paths.write.length > 0) {
    return "it is granted paths outside its folders ([paths])";
  }
  if (Object.keys(spec.teams).length > 0) return "it is granted team folders ([teams])";
  return undefined;
}
