/**
 * The agent's egress proxy, its only way out of the sandbox (SBX-7..19): the base-URL form
 * (`/_link/s/<secret>/<scheme>/<host>/...`, where a known provider's key is added, SBX-16) and
 * the forward-proxy form (absolute URIs and CONNECT with the secret as the password), to the
 * hosts and ports the agent's grants allow and never to this machine or its networks.
 * @module
 */
/** Serves the proxy on a unix socket or a port of 127.0.0.1. */
export {
  PROXY_MAX_CONNECTIONS,
  type ProxyServer,
  serveProxy,
  type ServeProxyOptions,
} from "./serve_proxy.ts";
/** How long a request's head may take, and a connection may wait for one, before the proxy lets it go. */
export { HEAD_DEADLINE_MS, type HeadDeadlines, IDLE_DEADLINE_MS } from "./head_deadline.ts";
/** What the proxy lets through, and that policy built from an agent's sandbox file. */
export { ProxyPolicy, proxyPolicyFrom } from "./proxy_policy.ts";
/** A hosted model's key the proxy adds, and its form on the role's stdin. */
export { type ProxyKey, ProxyKeyInput } from "./proxy_key.ts";
/** Decides whether a host and port may be reached, resolving a granted name once. */
export { checkTarget, type Decision, type Resolve, type Route } from "./check_target.ts";
/** A policy read into the rules checkTarget compares against. */
export { compileTargetRules, type MachineView, type TargetRules } from "./target_rules.ts";
/** Why a request was refused (the `Link-Refused` header) and what the caller reads. */
export { type Refusal, type RefusalReason } from "./refusal.ts";
/** How the proxy reaches upstream: dialling a checked address, TLS on it, resolving. */
export { type Dial, dialTcp, resolveDns, type StartTls, startTls } from "./upstream.ts";
/** The connection methods the proxy uses. */
export { type ByteConn } from "./byte_conn.ts";
/** The variables and URLs a sandboxed program reaches the proxy with. */
export { proxyBaseUrl, proxyEnv, proxyUrl } from "./proxy_env.ts";
/** A fresh secret for one start of the proxy. */
export { newProxySecret } from "./new_proxy_secret.ts";
/** The `lnk proxy serve` role and the JSON line it reads on stdin. */
export { ProxyRoleInput, runProxyRole } from "./run_proxy_role.ts";
