/**
 * The one server library every bridge of Link is served by (BRG-11): a challenge line, a proof
 * line (HMAC-SHA256 with the agent's key under "link-bridge-v1", U-2), a 5 s deadline over the
 * whole exchange, places for unproven connections per calling user, a cap on proven calls, and
 * one error shape; and its client. The agent's door, served on it, is the agent bridge's
 * (core/agent_bridge/door/).
 * @module
 */
/** Serves a bridge: a bridge gives only its name, cap, whom it serves, and what it does with a call. */
export {
  type BridgeAddr,
  type BridgeHosting,
  type BridgeServer,
  serveBridge,
  type ServeBridgeOptions,
} from "./serve_bridge.ts";
/** A proven call and its connection, as a bridge's handler gets them. */
export { type BridgeCall, type BridgeConn, type BridgeHandler } from "./bridge_call.ts";
/** Who connected, as far as the system tells (never which agent). */
export { type BridgePeer } from "./bridge_peer.ts";
/** The deadline over the proof exchange and how a bridge finds an agent's key. */
export { type KeyFor, PROOF_DEADLINE_MS } from "./bridge_session.ts";
/** A `keyFor` for a bridge that serves one agent. */
export { keyForOne } from "./key_for_one.ts";
/** Calls a bridge: a typed call, or a call that carries bytes. */
export { type BridgeStream, callBridge, type CallBridgeOptions, openBridge } from "./call_bridge.ts";
/** Who calls a bridge and for what. */
export { type BridgeCaller } from "./proven_connection.ts";
/** The bridge lines and the one error shape (U-2, U-11). */
export {
  BRIDGE_LABEL,
  BridgeAnswerLine,
  type BridgeErrorCode,
  bridgeErrorCode,
  BridgeErrorLine,
  bridgeFailure,
  PROVEN_LINE,
} from "./bridge_wire.ts";
/** Who a caller is for the unproven places: a user, or a process of unknown user. */
export { peerOf, placesKey } from "./bridge_peer.ts";
/** The unproven connections' places, per calling user, the oldest given up first (BRG-13). */
export { type UnprovenPlace, UnprovenPlaces } from "./unproven_places.ts";
