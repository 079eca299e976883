/**
 * Connections: how messages reach an agent's endpoint and answers come back. Every connection
 * sends as a bridge does (`askFor`), behind one contract.
 * @module
 */
/** The caller's side of the endpoint: prove the endpoint, then prove each request. */
export {
  type AskCaller,
  type AskResult,
  type EndpointAddress,
  openEndpoint,
  ProvenEndpoint,
  type SessionUpdate,
} from "./endpoint/ask_for.ts";
/** The endpoint's side of the proof. */
export {
  CHALLENGE_TTL_MS,
  EndpointGuard,
  type EndpointGuardOptions,
  PROOF_PATH,
} from "./endpoint/endpoint_guard.ts";
/** The endpoint's HTTP/1.1 server, telling each request's connection, so proofs bind to it (BRG-2). */
export {
  type EndpointConn,
  type EndpointHandler,
  type EndpointServer,
  serveEndpoint,
  type ServeEndpointOptions,
} from "./endpoint/http1_server.ts";
/** A held HTTP/1.1 connection, for callers that must keep one. */
export { Http1Connection, readLines, readText } from "./endpoint/http1_client.ts";
