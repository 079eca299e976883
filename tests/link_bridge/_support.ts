import assert from "node:assert/strict";
import { join } from "node:path";
import {
  type AgentKey,
  encodeKey,
  LinkPaths,
  makeProof,
  newAgentKey,
  type ProofLabel,
} from "../../core/base/mod.ts";
import { type BridgeHosting, type BridgeServer, callBridge, openBridge } from "../../link_bridge/mod.ts";
import { FakeClock } from "../support/fake_clock.ts";

/** The agent a bridge under test serves; its key is bound in the test home's keyring. */
export interface TestAgent {
  id: string;
  owner: string;
  key: AgentKey;
}

/** What a bridge's `start` gets: whom to serve, the home, and the library's hosting to pass on. */
export interface BridgeSetup {
  agent: TestAgent;
  home: LinkPaths;
  hosting: BridgeHosting;
}

/**
 * One bridge, as the conformance test runs it (BRG-11). A bridge joins by adding one of these
 * to the list in conformance_test.ts.
 */
export interface BridgeUnderTest {
  /** Its name in test names. */
  name: string;
  /** The cap it declares. */
  cap: number;
  /** An action whose proven call waits for the caller's bytes after the proof (a body line or a relay). */
  action: string;
  /** The action's typed body and the answer it gets; omit when the action carries bytes. */
  call?: { body: unknown; answer: (agent: TestAgent) => unknown };
  /** Starts the bridge serving `agent`, passing `hosting` on to serveBridge. */
  start(setup: BridgeSetup): Promise<BridgeServer>;
}

/** A running bridge under test and what it was given. */
export interface Rig extends AsyncDisposable {
  server: BridgeServer;
  agent: TestAgent;
  home: LinkPaths;
  clock: FakeClock;
}

let counter = 0;

/** Starts a bridge in a fresh home with a bound key, on its unix socket or on TCP. */
export async function startRig(
  bridge: BridgeUnderTest,
  options: { tcp?: boolean; placesPerUser?: number; placesPerBridge?: number } = {},
): Promise<Rig> {
  const root = await Deno.makeTempDir({ prefix: "lnk-bridge-" });
  const home = new LinkPaths(join(root, "home"));
  const agent: TestAgent = {
    id: `agent${++counter}x${crypto.randomUUID().slice(0, 8)}`,
    owner: "local-test-0",
    key: newAgentKey(),
  };
  await bindKey(home, agent.id, agent.key);
  await Deno.mkdir(home.net(agent.id), { recursive: true, mode: 0o700 });
  await Deno.chmod(home.net(agent.id), 0o700);
  const clock = new FakeClock();
  const where = options.tcp ? { port: 0 } : { path: join(home.net(agent.id), `${bridge.name}.sock`) };
  const hosting: BridgeHosting = {
    ...where,
    clock,
    checkKeyring: home,
    placesPerUser: options.placesPerUser,
    placesPerBridge: options.placesPerBridge,
  };
  const server = await bridge.start({ agent, home, hosting });
  return {
    server,
    agent,
    home,
    clock,
    async [Symbol.asyncDispose]() {
      await server.close();
      await Deno.remove(root, { recursive: true });
    },
  };
}

/** Writes a key into the home's keyring as `lnk agent start` binds it (BRG-7). */
export async function bindKey(home: LinkPaths, id: string, key: AgentKey): Promise<void> {
  await Deno.mkdir(home.keys, { recursive: true, mode: 0o700 });
  await Deno.chmod(home.keys, 0o700);
  await Deno.writeTextFile(home.keyFile(id), `${encodeKey(key)}\n`, { mode: 0o600 });
}

/** What a proof is made over, when a test makes it wrong on purpose. */
export interface ProofParts {
  key?: AgentKey;
  label?: ProofLabel;
  agentId?: string;
  owner?: string;
  action?: string;
}

/** A proof line claiming `claim`, with its HMAC made over `over` (the claim itself unless told). */
export function proofLineFor(
  challenge: string,
  claim: { agentId: string; owner: string; action: string },
  key: AgentKey,
  over: ProofParts = {},
): string {
  const mac = makeProof(
    over.key ?? key,
    over.label ?? "link-bridge-v1",
    challenge,
    over.agentId ?? claim.agentId,
    over.owner ?? claim.owner,
    over.action ?? claim.action,
  );
  return `proof ${claim.agentId} ${claim.owner} ${claim.action} ${mac}\n`;
}

/**
 * Reads one line and checks it is Link's one error shape with `code`, one of the five a bridge
 * gives (U-11), then the hang-up.
 */
export async function expectError(
  client: { readLine(): Promise<string | undefined> },
  code: string,
): Promise<void> {
  const line = await client.readLine();
  assert.ok(line !== undefined, `expected a "${code}" error line, the bridge hung up`);
  const parsed = JSON.parse(line);
  assert.deepEqual(parsed, { error: { code, message: parsed?.error?.message, hint: parsed?.error?.hint } });
  assert.ok(parsed.error.hint === null || typeof parsed.error.hint === "string", line);
  assert.match(parsed.error.message, /^Cannot /);
  assert.equal(await client.readLine(), undefined);
}

/** Makes the bridge's positive call: its typed answer, or a relay opened and closed. */
export async function provenCall(rig: Rig, bridge: BridgeUnderTest): Promise<void> {
  const caller = { agentId: rig.agent.id, owner: rig.agent.owner, key: rig.agent.key };
  if (bridge.call) {
    const answer = await callBridge(rig.server.addr, {
      ...caller,
      action: bridge.action,
      body: bridge.call.body,
    });
    assert.deepEqual(answer, bridge.call.answer(rig.agent));
    return;
  }
  const stream = await openBridge(rig.server.addr, { ...caller, action: bridge.action });
  stream.close();
}

/** The body line of the bridge's typed call, or nothing for a relay. */
export function bodyLineOf(bridge: BridgeUnderTest): string {
  return bridge.call ? `${JSON.stringify(bridge.call.body)}\n` : "";
}
