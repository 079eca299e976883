import { z } from "zod";

/** Slack's own Web API, unless `--api-url` names another (a test's fake). */
export const SLACK_API_URL = "https://slack.com/api/";

/** `bots.slack` in the agent's settings: where the Web API is, the workspace, the bot, its paired owner. */
export const SlackBot = z.strictObject({
  api_url: z.url(),
  team_id: z.string(),
  bot_user_id: z.string(),
  owner: z.strictObject({ id: z.string(), team_id: z.string(), name: z.string() }),
  paired_at: z.string(),
});
export type SlackBot = z.infer<typeof SlackBot>;
