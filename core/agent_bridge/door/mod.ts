/**
 * The agent's door as its bridge runs it: its port relayed to the harness's socket (serveDoor), the agent woken at a connection that finds it asleep or its harness dead (one wake
 * shared, 503 with the reason when it fails), and let sleep when idle (PRC-10, PRC-11, U-36).
 * @module
 */
/** Opens the door over an agent. */
export { type AgentDoor, type AgentDoorOptions, openAgentDoor } from "./agent_door.ts";
/** Waking and sleeping, one step at a time. */
export { AgentWaker, type AgentWakerOptions, type WakeState } from "./agent_waker.ts";
/** The idle sleep condition (PRC-10). */
export { type IdleCheck, IdleWatch, type IdleWatchOptions } from "./idle_watch.ts";
/** Asks the harness whether a turn runs or a background command holds its lock. */
export { askHarnessBusy, HarnessBusy } from "./harness_busy.ts";
/** Rejects when a door or bridge stops accepting on its own, so its role ends with why. */
export { stoppedAccepting } from "./stopped_accepting.ts";
/** Relays a port to a socket, telling when an answer is still coming (its framing watched). */
export { type Door, type DoorActivity, serveDoor, type ServeDoorOptions } from "./serve_door.ts";
/** Who a door's 503 to a proof request proves it stands for. */
export { type DoorProver } from "./answer_unavailable.ts";
/** Tells whether an answer is still coming on a relayed HTTP/1.1 connection, from its framing alone. */
export {
  type FramedRequest,
  type FramingEvents,
  type HttpFraming,
  trackHttpFraming,
} from "./http_framing.ts";
/** The door's unproven places, and which answers prove a caller at the door (BRG-13, PRC-11). */
export { DOOR_PLACES, DOOR_PLACES_PER_USER, provesCaller } from "./door_proof.ts";
/** Who may send the agent a message marked from another agent: a teammate, judged as it comes (TEAM-7). */
export { checkTeammate, type DoorAgent } from "./teammate_check.ts";
