import assert from "node:assert/strict";
import { Secret } from "../../../core/base/mod.ts";
import { checkSlackTokens } from "../../../connections/slack/mod.ts";

const BOT = "xoxb-test-bot-token";
const APP = "xapp-test-app-token";

/**
 * A stand-in for the two Web API methods the check calls, until tests/fakes/fake_slack.ts lands:
 * each answers as `answer` says for the token it is given.
 */
function serveWebApi(answer: (method: string, token: string) => unknown): Deno.HttpServer<Deno.NetAddr> & {
  url: string;
} {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const token = (req.headers.get("authorization") ?? "").replace(/^Bearer /, "");
    const body = answer(new URL(req.url).pathname.replace(/^\/api\//, ""), token);
    return typeof body === "string" ? new Response(body) : Response.json(body);
  });
  return Object.assign(server, { url: `http://127.0.0.1:${server.addr.port}/api/` });
}

function account(url: string) {
  return { apiUrl: url, botToken: new Secret(BOT), appToken: new Secret(APP) };
}

const slackLike = (method: string, token: string) => {
  if (method === "auth.test") {
    return token === BOT
      ? { ok: true, team_id: "T1", user_id: "UBOT", bot_id: "B1", url: "https://x.slack.com/" }
      : { ok: false, error: "invalid_auth" };
  }
  if (method === "apps.connections.open") {
    return token === APP ? { ok: true, url: "ws://127.0.0.1:1/link/" } : { ok: false, error: "invalid_auth" };
  }
  return { ok: false, error: "unknown_method" };
};

Deno.test("checkSlackTokens() says the workspace and the bot for two good tokens", async () => {
  await using api = serveWebApi(slackLike);
  assert.deepEqual(await checkSlackTokens(account(api.url)), {
    teamId: "T1",
    botUserId: "UBOT",
    botId: "B1",
  });
});

Deno.test("checkSlackTokens() refuses a bad bot token, naming it, with no token in the error", async () => {
  await using api = serveWebApi(slackLike);
  const err = await checkSlackTokens({ ...account(api.url), botToken: new Secret("xoxb-wrong") }).catch((e) =>
    e
  );
  assert.equal(err.code, "REFUSED");
  assert.equal(
    err.message,
    "Cannot use the Slack bot token: Slack refused the bot token (xoxb-) (invalid_auth)",
  );
  assert.ok(!JSON.stringify([err.message, err.hint, String(err.cause)]).includes("xoxb-wrong"));
});

Deno.test("checkSlackTokens() refuses a bad app-level token, naming it", async () => {
  await using api = serveWebApi(slackLike);
  const err = await checkSlackTokens({ ...account(api.url), appToken: new Secret("xapp-wrong") }).catch((e) =>
    e
  );
  assert.equal(err.code, "REFUSED");
  assert.equal(
    err.message,
    "Cannot use the Slack app-level token: Slack refused the app-level token (xapp-) (invalid_auth)",
  );
});

Deno.test("checkSlackTokens() says SERVICE_FAILED for an address that answers garbage or nothing", async () => {
  await using api = serveWebApi(() => "<html>not slack</html>");
  await assert.rejects(checkSlackTokens(account(api.url)), { name: "LinkError", code: "SERVICE_FAILED" });
  const gone = serveWebApi(slackLike);
  const url = gone.url;
  await gone.shutdown();
  await assert.rejects(checkSlackTokens(account(url)), { name: "LinkError", code: "SERVICE_FAILED" });
});
