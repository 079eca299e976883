/**
 * Every bridge of Link, running, against the rules of the one bridge library (BRG-11). A bridge
 * joins by adding its entry to BRIDGES.
 */
import type { BridgeUnderTest } from "./_support.ts";
import { runBridgeConformance } from "./_conformance_support.ts";
import { serveDemoBridge } from "../support/demo_bridge.ts";
import { serveStoreBridge } from "../../core/agent_bridge/mod.ts";
import { STORE_BRIDGE_CAP } from "../../core/agent_bridge/mod.ts";
import { SEND_ACTION } from "../../core/agent_bridge/mod.ts";
import { WAY_IN_CAP } from "../../core/agent_bridge/mod.ts";
import { sqliteStorePath } from "../../core/agent_bridge/mod.ts";
import { serveWayIn } from "../../core/agent_bridge/mod.ts";

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
  {
    name: "store",
    cap: STORE_BRIDGE_CAP,
    action: "list",
    call: { body: { op: "list" }, answer: () => ({ ok: true, conversations: [] }) },
    start: ({ agent, home, hosting }) =>
      serveStoreBridge({
        ...hosting,
        agent,
        key: agent.key,
        paths: home,
        driver: { kind: "sqlite", path: sqliteStorePath(home, agent.id) },
      }),
  },
  {
    name: "send",
    cap: WAY_IN_CAP,
    action: SEND_ACTION,
    call: {
      body: { connection: "link", thread: "link:main", text: "hello" },
      answer: () => ({ held: true }),
    },
    start: ({ agent, home, hosting }) => serveWayIn({ ...hosting, agent, key: agent.key, paths: home }),
  },
];

for (const bridge of BRIDGES) runBridgeConformance(bridge);
