/**
 * An agent's webhooks (WHK-1..7): posts to `127.0.0.1:<port>/<hook>` in its bridge, each checked by
 * its hook's sift plugin (GitHub's signature, a shared secret) and handed to the agent through its
 * door as a stranger's message from `webhook:<name>`, with the strangers' tools only; the hooks'
 * secrets outside every sandbox, and the commands that add, list, roll and remove them.
 * @module
 */
/** The listener, opened by the agent's bridge. */
export {
  listenForWebhooks,
  type ListenOptions,
  WEBHOOK_HOST,
  type WebhookListener,
} from "./listen_for_webhooks.ts";
/** Its handler: statuses, the body's cap, the ids kept 30 days. */
export {
  MAX_BODY,
  quoted,
  type WebhookHandler,
  webhookHandler,
  type WebhookHandlerOptions,
} from "./webhook_handler.ts";
/** How a checked post reaches the agent. */
export { type HandedIn, handIn, type WebhookMessage } from "./hand_in.ts";
/** Sift plugins (WHK-3). */
export { type Sift, type SiftVerdict, type WebhookPost } from "./sift.ts";
export { SIFTS } from "./sifts.ts";
/** A hook's folder, its secrets (WHK-7) and the ids it took (WHK-6). */
export { hookDir, OVERLAP_MS, secretsOf, writeSecret } from "./hook_secrets.ts";
export { KEEP_IDS_MS, SeenPosts } from "./seen_posts.ts";
/** `lnk agent webhook add|list|remove|roll`. */
export {
  addWebhook,
  endRoll,
  listWebhooks,
  removeWebhook,
  rollWebhook,
  type WebhookInfo,
  type WebhookSecret,
} from "./manage_webhooks.ts";
/** `lnk tunnel open --public` (WHK-8): an explicit step through ssh or cloudflared. */
export { openTunnel, type TunnelOptions } from "./open_tunnel.ts";
