import { join } from "node:path";
import { type Clock, Secret } from "../../../core/base/mod.ts";
import {
  handIn,
  type Sift,
  webhookHandler,
  type WebhookHandlerOptions,
  writeSecret,
} from "../../../core/webhooks/mod.ts";
import type { FakeModel } from "../../fakes/fake_model.ts";
import { type HarnessFixture, harnessFixture } from "../../support/harness_fixture.ts";

/** The HMAC-SHA256 of `body` under `secret`, as GitHub signs: `sha256=<hex>`. */
export async function githubSignature(secret: string, body: string | Uint8Array): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, bytes as Uint8Array<ArrayBuffer>));
  return `sha256=${Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** A GitHub post's headers, signed with `secret`. */
export async function githubHeaders(
  secret: string,
  body: string,
  delivery: string,
  event = "push",
): Promise<Record<string, string>> {
  return {
    "Content-Type": "application/json",
    "X-GitHub-Event": event,
    "X-GitHub-Delivery": delivery,
    "X-Hub-Signature-256": await githubSignature(secret, body),
  };
}

/** A webhook listener in this process, in front of an in-process Link Harness. */
export interface Listening extends AsyncDisposable {
  readonly url: string;
  readonly port: number;
  readonly harness: HarnessFixture;
  readonly dir: string;
  /** Stops the harness (the agent is down), or starts a new one on the same socket. */
  harnessDown(): Promise<void>;
  harnessUp(): Promise<void>;
  post(path: string, init: RequestInit): Promise<{ status: number; text: string }>;
  /** Resolves once every turn handed in so far has been read to its end. */
  idle(): Promise<void>;
}

/** Hooks `gh` (github) and `plain` (secret), their secrets "gh-secret" and "plain-secret". */
export async function listening(
  model: FakeModel,
  options: { clock?: Clock; sifts?: ReadonlyMap<string, Sift>; strangersTools?: string[] } = {},
): Promise<Listening> {
  let harness = await harnessFixture(model, options.clock ? { clock: options.clock } : {});
  const dir = await Deno.makeTempDir({ prefix: "lnk-webhooks-" });
  const hooks: Record<string, { sift: string }> = { gh: { sift: "github" }, plain: { sift: "secret" } };
  await writeSecret(join(dir, "gh"), new Secret("gh-secret"));
  await writeSecret(join(dir, "plain"), new Secret("plain-secret"));
  const socket = harness.socket;
  const caller = () => ({ agentId: harness.agents[0]!.id, agentName: "main", key: harness.keys[0]! });
  const handlerOptions: WebhookHandlerOptions = {
    hooks: () => Promise.resolve(hooks),
    hookDir: (name) => join(dir, name),
    strangersTools: () => Promise.resolve(options.strangersTools ?? []),
    handIn: (message) => handIn({ endpoint: { path: socket }, caller: caller() }, message),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.sifts ? { sifts: options.sifts } : {}),
  };
  const handler = webhookHandler(handlerOptions);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => handler.handle(req));
  const url = `http://127.0.0.1:${server.addr.port}`;
  let down = false;
  return {
    url,
    port: server.addr.port,
    get harness() {
      return harness;
    },
    dir,
    async harnessDown() {
      await harness.server[Symbol.asyncDispose]();
      down = true;
    },
    async harnessUp() {
      await Deno.remove(harness.dir, { recursive: true }).catch(() => {});
      harness = await harnessFixture(model, options.clock ? { clock: options.clock } : {});
      handlerOptions.handIn = (message) =>
        handIn({ endpoint: { path: harness.socket }, caller: caller() }, message);
      down = false;
    },
    idle: () => handler.idle(),
    async post(path, init) {
      const res = await fetch(`${url}${path}`, init);
      return { status: res.status, text: await res.text() };
    },
    async [Symbol.asyncDispose]() {
      await server.shutdown();
      await handler[Symbol.asyncDispose]();
      if (!down) await harness[Symbol.asyncDispose]();
      else await Deno.remove(harness.dir, { recursive: true }).catch(() => {});
      await Deno.remove(dir, { recursive: true });
    },
  };
}
