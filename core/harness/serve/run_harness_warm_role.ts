/**
 * `lnk harness warm`: loads every module a woken harness loads, outside any sandbox, then ends.
 * Inside its sandbox the harness reads Deno's code cache but cannot write it, so from a checkout
 * each wake compiled the serve path afresh (some 180 ms) until something outside had loaded the
 * same files; the bridge runs this once as it starts, so later wakes find them compiled (PRC-13).
 */
export async function runHarnessWarmRole(): Promise<number> {
  await Promise.all([
    // What the sandbox's first process loads before the harness: the relay role, and the serve
    // role's entry in main.ts's table. Left out, an edit of either compiled afresh at every wake.
    import("../../../sandbox/run_relay_role.ts"),
    import("./mod.ts"),
    import("./run_harness_serve_role.ts"),
    import("./harness_input.ts"),
    import("./load_served_agent.ts"),
    import("./harness_tools.ts"),
    import("../endpoint/harness_handler.ts"),
    import("../turns/agent_turns.ts"),
    import("../tools/mod.ts"),
    // The MCP SDK's client, which a woken harness loads at the first call of one of Link's tools.
    import("../tools/proxied_tools.ts"),
    import("../store/mod.ts"),
    import("../model/mod.ts"),
  ]);
  return 0;
}
