import { type Clock, LinkError, type Secret, SYSTEM_CLOCK } from "../base/mod.ts";
import {
  type AgentContext,
  type AgentSettings,
  agentStatus,
  stopAgent,
  updateSettings,
} from "../agent/mod.ts";
import { startAgent } from "../agent/launch/mod.ts";
import { WEBHOOK_NAME } from "../spec/mod.ts";
import { forgetPrevious, hookDir, newSecret, OVERLAP_MS, readSecret, writeSecret } from "./hook_secrets.ts";
import { SENDER_AWARE_HARNESSES, WEBHOOK_HOST } from "./listen_for_webhooks.ts";
import { SIFTS } from "./sifts.ts";

/** One hook as `lnk agent webhook list` shows it: never its secret. */
export interface WebhookInfo {
  name: string;
  sift: string;
  url: string;
  created: string;
}

/** A hook just added or rolled: its secret, shown this once. */
export interface WebhookSecret extends WebhookInfo {
  secret: Secret;
}

/**
 * Adds a webhook (WHK-1, WHK-3): its sift, a new secret kept 0600 in its folder outside every
 * sandbox, and the listener's port chosen now if the agent has none, kept in its settings. Never
 * opens a tunnel. The first hook of a running agent starts it again, so its bridge listens.
 */
export async function addWebhook(
  ctx: AgentContext,
  agent: AgentSettings,
  name: string,
  options: { sift: string; clock?: Clock },
): Promise<WebhookSecret> {
  if (!WEBHOOK_NAME.test(name)) {
    throw new LinkError(
      "USAGE",
      `Cannot add webhook "${name}": a name is a lowercase word of letters, digits and -`,
      {
        hint: "Name it like `github` or `ci-builds`",
      },
    );
  }
  if (!SIFTS.has(options.sift)) {
    throw new LinkError("USAGE", `Cannot add webhook "${name}": Link has no sift "${options.sift}"`, {
      hint: `Use --sift ${[...SIFTS.keys()].join(" or --sift ")}`,
    });
  }
  // Only a harness that keeps who a message is from and a conversation's tools gets one (WHK-5).
  if (!SENDER_AWARE_HARNESSES.includes(agent.harness)) {
    throw new LinkError(
      "UNSUPPORTED",
      `Cannot add webhook "${name}" to agent "${agent.name}": its harness, ${agent.harness}, cannot keep a post apart from its owner's messages`,
      {
        hint:
          "Webhooks need a harness that keeps who wrote each message and a conversation's tools, such as Link Harness",
      },
    );
  }
  if (agent.webhooks?.hooks[name]) {
    throw new LinkError(
      "CONFLICT",
      `Cannot add webhook "${name}": agent "${agent.name}" has one by that name`,
      {
        hint: `Run \`lnk agent webhook roll ${name}\` for a new secret, or remove it first`,
      },
    );
  }
  const created = new Date((options.clock ?? SYSTEM_CLOCK).now()).toISOString();
  const secret = newSecret();
  await writeSecret(hookDir(ctx.paths, agent.id, name), secret);
  const listening = agent.webhooks?.port !== undefined;
  const add = () =>
    updateSettings(ctx.paths, agent.id, (now) => ({
      ...now,
      webhooks: {
        port: now.webhooks?.port ?? pickPort(),
        hooks: { ...now.webhooks?.hooks, [name]: { sift: options.sift, created } },
      },
    }));
  // A bridge listens only when it starts with webhooks: a running agent's first one starts it again.
  const restart = !listening && (await agentStatus(ctx, agent)).state !== "stopped";
  if (restart) await stopAgent(ctx, agent);
  const saved = await add();
  if (restart) await startAgent(ctx, saved);
  return { ...infoOf(saved, name), secret };
}

/** The agent's webhooks, by name. */
export function listWebhooks(agent: AgentSettings): WebhookInfo[] {
  return Object.keys(agent.webhooks?.hooks ?? {}).sort().map((name) => infoOf(agent, name));
}

/** Removes a webhook, its secrets and the ids it took: its posts are refused 404 at once. */
export async function removeWebhook(
  ctx: AgentContext,
  agent: AgentSettings,
  name: string,
): Promise<WebhookInfo> {
  const info = infoOf(agent, name);
  await updateSettings(ctx.paths, agent.id, (now) => {
    const hooks = { ...now.webhooks?.hooks };
    delete hooks[name];
    return { ...now, webhooks: { ...now.webhooks, hooks } };
  });
  await Deno.remove(hookDir(ctx.paths, agent.id, name), { recursive: true }).catch((err) => {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  });
  return info;
}

/**
 * Rolls a webhook's secret (WHK-7): a new one, the previous still taken for 24 hours, its expiry
 * kept beside it. With `done`, ends that overlap: the previous one is refused from now.
 */
export async function rollWebhook(
  ctx: AgentContext,
  agent: AgentSettings,
  name: string,
  options: { clock?: Clock } = {},
): Promise<WebhookSecret & { previousUntil: string }> {
  const info = infoOf(agent, name);
  const dir = hookDir(ctx.paths, agent.id, name);
  const previous = await readSecret(dir);
  const secret = newSecret();
  const expires = (options.clock ?? SYSTEM_CLOCK).now() + OVERLAP_MS;
  await writeSecret(dir, secret, previous ? { secret: previous, expires } : undefined);
  return { ...info, secret, previousUntil: new Date(expires).toISOString() };
}

/** Ends a roll's overlap: whether there was a previous secret to refuse. */
export async function endRoll(ctx: AgentContext, agent: AgentSettings, name: string): Promise<boolean> {
  infoOf(agent, name);
  return await forgetPrevious(hookDir(ctx.paths, agent.id, name));
}

function infoOf(agent: AgentSettings, name: string): WebhookInfo {
  const hook = agent.webhooks?.hooks[name];
  if (!hook) {
    throw new LinkError("REFUSED", `Cannot find webhook "${name}" of agent "${agent.name}"`, {
      hint: "Run `lnk agent webhook list` to see its webhooks",
    });
  }
  const url = `http://${WEBHOOK_HOST}:${agent.webhooks?.port}/${name}`;
  return { name, sift: hook.sift, url, created: hook.created };
}

/** A port for the listener, picked by the system now (bound on port 0 and let go), then kept. */
function pickPort(): number {
  const listener = Deno.listen({ hostname: WEBHOOK_HOST, port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}
