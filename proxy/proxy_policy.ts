import { z } from "zod";
import type { SandboxSpec } from "../core/spec/mod.ts";

/**
 * What an agent's proxy lets through (SBX-11, SBX-12, SBX-9, GRT-14), as the role reads it on
 * stdin. Hosts are names, addresses, "*" (any public host) or "*.example.com" (its subdomains);
 * they reach ports 443 and 80. `tcp` names endpoints "host:port", each reaching only its port.
 * `lanHosts` are hosts of the local network ("nas.local", or "nas.local:5000" for one more port);
 * `localhostPorts` are the only ports of this machine any request may reach.
 */
export const ProxyPolicy = z.strictObject({
  hosts: z.array(z.string().min(1)).default(["*"]),
  tcp: z.array(z.string().regex(/^[^\s:/]+:\d{1,5}$/, 'must be "host:port"')).default([]),
  lanHosts: z.array(z.string().min(1)).default([]),
  localhostPorts: z.array(z.number().int().min(1).max(65535)).default([]),
  /**
   * The person's own package registries as "host:port", reached wherever they resolve (a company
   * mirror on a private or reserved address): their word, given to an install step alone.
   */
  registries: z.array(z.string().regex(/^[^\s/]+:\d{1,5}$/, 'must be "host:port"')).default([]),
});
export type ProxyPolicy = z.infer<typeof ProxyPolicy>;

/** The proxy's policy from an agent's grants: `[internet]`, `[lan]` and `[localhost]`. */
export function proxyPolicyFrom(spec: SandboxSpec): ProxyPolicy {
  return {
    hosts: [...spec.internet.hosts],
    tcp: [...spec.internet.tcp],
    lanHosts: [...spec.lan.hosts],
    localhostPorts: [...spec.localhost.ports],
    registries: [],
  };
}
