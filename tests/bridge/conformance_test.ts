/**
 * Every bridge of Link, running, against the rules of the one bridge library (BRG-11). A bridge
 * joins by adding its entry to BRIDGES.
 */
import type { BridgeUnderTest } from "./conformance_kit.ts";
import { runBridgeConformance } from "./bridge_conformance.ts";
import { serveDemoBridge } from "./demo_bridge.ts";

const BRIDGES: BridgeUnderTest[] = [
  {
    name: "demo",
    cap: 3,
    action: "echo",
    call: {
      body: { text: "hello" },
      answer: (agent) => ({ text: "hello", agentId: agent.id, owner: agent.owner }),
    },
    start: ({ agent, hosting }) => serveDemoBridge(agent, hosting),
  },
  {
    name: "demo relay",
    cap: 3,
    action: "relay",
    start: ({ agent, hosting }) => serveDemoBridge(agent, hosting),
  },
];

for (const bridge of BRIDGES) runBridgeConformance(bridge);
