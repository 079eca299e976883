// deno-lint-ignore-file no-console -- a CI step: what it says is its whole output.
/**
 * The path a new user takes, as a step of CI: a fresh clone, a fresh HOME, an empty Deno cache and an npm
 * prefix of its own, then the README's first shell block, taken from README.md as written. npm and Deno
 * reach the registry through a front on the loopback that adds a newer patch of `ws` than deno.lock pins,
 * as happens any day a transitive package publishes one. Then: `main` is running, a second agent on a fake
 * model answers `lnk agent chat send`, pairs on the fake Bot API and answers there, and both are stopped.
 * A failing step prints its name, what it said, and `lnk agent logs`. Exits 0 when every step held.
 *
 *   deno run -A --frozen --cached-only .ci/new_user.ts [--repo <checkout>] [--readme <file>]
 * @module
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { serveFakeModel } from "../tests/fakes/fake_model.ts";
import { serveFakeTelegram } from "../tests/fakes/fake_telegram.ts";

const NEWER_WS = "8.999.0";

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

class StepFailed extends Error {}

/** The first ```sh block of a README: the command a new user runs. */
export function firstShellBlock(readme: string): string {
  const found = readme.match(/^```(?:sh|bash|shell)\n([\s\S]*?)^```/m);
  if (!found) throw new Error("README.md has no ```sh block");
  return found[1]!.trim();
}

/** The npm registry the person configured, as npm itself says it. */
async function upstreamRegistry(): Promise<string> {
  const out = await new Deno.Command("npm", { args: ["config", "get", "registry"], stderr: "null" }).output();
  const url = new TextDecoder().decode(out.stdout).trim();
  if (!out.success || !/^https?:\/\//.test(url)) {
    throw new Error("`npm config get registry` said no registry");
  }
  return url.endsWith("/") ? url : `${url}/`;
}

/**
 * A front for the registry on the loopback: every request goes on to the upstream as it came, but `ws`'s
 * metadata gains a version newer than any the lock pins (the newest one's files, a newer number).
 */
function serveRegistryFront(upstream: string): { url: string; close(): Promise<void> } {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname.slice(1);
    const headers = new Headers();
    for (const name of ["accept", "authorization", "npm-command", "user-agent"]) {
      const value = req.headers.get(name);
      if (value) headers.set(name, value);
    }
    const answer = await fetch(upstream + path, {
      method: req.method,
      headers,
      body: req.method === "GET" || req.method === "HEAD" ? undefined : req.body,
    });
    if (path !== "ws" || !answer.ok) {
      const out = new Headers(answer.headers);
      out.delete("content-encoding");
      out.delete("content-length");
      return new Response(answer.body, { status: answer.status, headers: out });
    }
    const doc = await answer.json();
    const latest = doc["dist-tags"].latest as string;
    doc.versions[NEWER_WS] = { ...doc.versions[latest], version: NEWER_WS };
    doc["dist-tags"].latest = NEWER_WS;
    if (doc.time) doc.time[NEWER_WS] = new Date().toISOString();
    return Response.json(doc);
  });
  return { url: `http://127.0.0.1:${server.addr.port}/`, close: () => server.shutdown() };
}

async function main(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { repo: { type: "string" }, readme: { type: "string" } } });
  const repo = values.repo ?? new URL("..", import.meta.url).pathname;
  const root = await Deno.makeTempDir({ prefix: "lnk-new-user-" });
  const home = join(root, "home");
  const prefix = join(root, "npm-global");
  await Deno.mkdir(home);
  const front = serveRegistryFront(await upstreamRegistry());
  const env: Record<string, string> = {
    HOME: home,
    DENO_DIR: join(root, "deno-cache"),
    NPM_CONFIG_PREFIX: prefix,
    NPM_CONFIG_REGISTRY: front.url,
    NPM_CONFIG_UPDATE_NOTIFIER: "false",
    PATH: `${join(prefix, "bin")}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`,
    LANG: "C.UTF-8",
    NO_COLOR: "1",
  };
  const checkout = join(root, "lnk");
  const agents: string[] = [];
  let step = "";
  let lastRun: Ran | undefined;

  const run = async (command: string, argv: string[], options: { cwd?: string } = {}): Promise<Ran> => {
    const out = await new Deno.Command(command, {
      args: argv,
      cwd: options.cwd ?? checkout,
      env,
      clearEnv: true,
      stdin: "null",
    }).output();
    const decode = (b: Uint8Array) => new TextDecoder().decode(b);
    lastRun = { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
    return lastRun;
  };
  const lnk = (...argv: string[]) => run(join(prefix, "bin", "lnk"), argv);
  const expect = (held: boolean, why: string) => {
    if (!held) throw new StepFailed(why);
  };
  const begin = (name: string) => {
    step = name;
    console.error(`new user: ${name}`);
  };

  await using model = await serveFakeModel({ defaultText: "Hello, new user" });
  await using telegram = await serveFakeTelegram();
  try {
    begin("a fresh clone");
    const cloned = await run("git", ["clone", "--quiet", repo, checkout], { cwd: root });
    expect(cloned.code === 0, "git clone failed");
    const readme = await Deno.readTextFile(values.readme ?? join(checkout, "README.md"));
    const first = firstShellBlock(readme);

    begin(`the README's first command: ${first}`);
    agents.push("main");
    const installed = await run("sh", ["-c", first]);
    expect(installed.code === 0, `it exited with code ${installed.code}`);
    expect(
      /OPENROUTER_API_KEY/.test(installed.stdout + installed.stderr),
      "it did not say how to give a key",
    );

    begin("lnk agent status --agent main says running");
    const main = await lnk("agent", "status", "--agent", "main", "--json");
    expect(main.code === 0 && JSON.parse(main.stdout).state === "running", "main is not running");

    begin("a second agent on a fake model answers lnk agent chat send");
    const created = await lnk("agent", "create", "second", "--model-url", model.url, "--model", "fake-model");
    expect(created.code === 0, "lnk agent create failed");
    agents.push("second");
    const started = await lnk("agent", "start", "--agent", "second");
    expect(started.code === 0, "lnk agent start failed");
    const said = await lnk("agent", "chat", "send", "--agent", "second", "hello");
    expect(said.code === 0 && said.stdout.includes("Hello, new user"), "no answer from the fake model");

    begin("lnk agent connect telegram --api-root pairs on the fake Bot API, and the agent answers there");
    const owner = telegram.user("Ada");
    const chat = telegram.privateChat(owner);
    const connect = new Deno.Command(join(prefix, "bin", "lnk"), {
      args: [
        ...["agent", "connect", "telegram", "--agent", "second", "--json"],
        ...["--token", telegram.token, "--api-root", telegram.apiRoot],
      ],
      cwd: checkout,
      env,
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const stderr = new Response(connect.stderr).text();
    let stdout = "";
    let paired = false;
    for await (const chunk of connect.stdout.pipeThrough(new TextDecoderStream())) {
      stdout += chunk;
      const code = stdout.split("\n").map((l) => l.match(/"code":"([^"]+)"/)?.[1]).find(Boolean);
      if (code && !paired) telegram.userSays(chat, owner, code);
      paired ||= code !== undefined;
    }
    const status = await connect.status;
    lastRun = { code: status.code, stdout, stderr: await stderr };
    expect(status.code === 0, "pairing failed");
    telegram.userSays(chat, owner, "are you there?");
    await telegram.nextCall("sendMessage", (c) => c.params.chat_id === chat.id);

    begin("lnk agent stop, for each");
    for (const name of agents.splice(0).reverse()) {
      const stopped = await lnk("agent", "stop", "--agent", name);
      expect(stopped.code === 0, `lnk agent stop --agent ${name} failed`);
    }
    console.error("new user: every step held");
    return 0;
  } catch (err) {
    console.error(`new user: FAILED at "${step}": ${(err as Error).message}`);
    if (lastRun) {
      console.error(`  its exit code: ${lastRun.code}`);
      console.error(`  its stdout:\n${indent(lastRun.stdout)}`);
      console.error(`  its stderr:\n${indent(lastRun.stderr)}`);
    }
    for (const name of agents) {
      const logs = await lnk("agent", "logs", "--agent", name).catch(() => undefined);
      console.error(`  lnk agent logs --agent ${name}:\n${indent(logs ? logs.stdout + logs.stderr : "")}`);
    }
    return 1;
  } finally {
    for (const name of agents) await lnk("agent", "stop", "--agent", name).catch(() => {});
    await front.close();
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}

function indent(text: string): string {
  return text.trimEnd().split("\n").slice(-40).map((l) => `    ${l}`).join("\n");
}

if (import.meta.main) Deno.exit(await main(Deno.args));
