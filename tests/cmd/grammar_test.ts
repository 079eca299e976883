import assert from "node:assert/strict";
import { join } from "node:path";
import { type Command, type Group, ROOT } from "../../cmd/mod.ts";
import { isGroup } from "../../cmd/command.ts";
import { runCli, runJson, runLnk, tempHome } from "../support/mod.ts";

function commands(group: Group, path: string[] = ["lnk"]): [string[], Command][] {
  return Object.entries(group.commands).flatMap(([name, entry]) =>
    isGroup(entry) ? commands(entry, [...path, name]) : [[[...path, name], entry] as [string[], Command]]
  );
}

/** `lnk --help`, as a person reads it; bare `lnk` prints it too, on stderr. */
const ROOT_HELP = [
  "Link runs your own AI agents on this machine, each in a sandbox",
  "",
  "Examples:",
  "  lnk setup",
  "",
  "Usage: lnk <command> [flags]",
  "",
  "Commands:",
  "  setup    Set this machine up for Link: install what it needs, then create and start main",
  "  agent    Create, start, stop and talk to your agents",
  "  sandbox  Run a program in a sandbox under a sandbox spec and grant flags",
  "  tunnel   Open a public tunnel to an agent's webhooks, through ssh or cloudflared",
  "",
  "Run `lnk <command> --help` for a command's flags and examples.",
  "",
].join("\n");

/** The help of a group and of a few leaves (short, with notes, with grant flags), pinned whole. */
const HELP: [string[], string][] = [
  [["--help"], ROOT_HELP],
  [
    ["agent", "--help"],
    [
      "Create, start, stop and talk to your agents",
      "",
      "Examples:",
      "  lnk agent create work",
      "  lnk agent list",
      "  lnk agent show",
      "  lnk agent start",
      "",
      "Usage: lnk agent <command> [flags]",
      "",
      "Commands:",
      "  create      Create an agent with its own ID, folders, spec and sandbox file",
      "  list        List your agents",
      "  show        Show an agent: its ID, owner, harness, folders and ports, or what every path of it runs with",
      "  start       Start an agent: its bridge and its harness, in its sandbox",
      "  stop        Stop an agent and its bridge, and unbind its key",
      "  status      Say whether an agent runs, its ports, its harness and its sandbox",
      "  logs        Show the logs of an agent's services: its harness, its bridge, its provider's errors",
      "  chat        Talk to an agent from this terminal, on the link connection",
      "  schedule    See, add and remove the messages scheduled for the agent, yours and its own",
      "  skill       Add skills to the agent from a git URL, list and remove them",
      "  memory      Turn the agent's memory on or off, search it, and see its state",
      "  connect     Connect the agent to Telegram, Slack, Discord or Signal, and pair you as its owner",
      "  disconnect  Disconnect a connection from the agent: its settings and its token go",
      "  share       Share a Telegram group, Slack channel or Discord channel with the agent, or admit one person",
      "  unshare     Take back what was shared on a connection: its chats and people, or the one named",
      "  remove      Remove an agent; its files are kept aside unless you say otherwise",
      "  restore     Bring back a removed agent whose files are still kept",
      "  allow       Let an agent reach more: change its grants (Config/sandbox.toml)",
      "  deny        Take back what an agent may reach: change its grants (Config/sandbox.toml)",
      "  secret      Show or set whether the proxy adds the agent's model key (wire) or its harness holds it (hold)",
      "  webhook     Add, list, roll and remove the agent's webhooks: URLs whose posts reach it as strangers' messages",
      "  harness     Run a command as the agent's harness would, check its sandbox and its adapter",
      "  team        Make teams of your agents: a shared folder, shared opinions, and messages between them",
      "",
      "Run `lnk agent <command> --help` for a command's flags and examples.",
      "",
    ].join("\n"),
  ],
  [
    ["agent", "schedule", "--help"],
    [
      "See, add and remove the messages scheduled for the agent, yours and its own",
      "",
      "Examples:",
      "  lnk agent schedule list",
      '  lnk agent schedule add --in 10m "Remind me to call Bo"',
      "  lnk agent schedule remove j-0123456789abcdefghij",
      "  lnk agent schedule next --json",
      "",
      "Usage: lnk agent schedule <command> [flags]",
      "",
      "Commands:",
      "  list    List the agent's scheduled jobs, who set each, and when each is next due",
      "  add     Schedule a message to the agent: at a time, after a delay, or on a cron expression",
      "  remove  Remove one of the agent's scheduled jobs",
      "  next    Say when the agent's next job is due: what a machine that wakes the agent itself reads",
      "  run     Fire the agent's jobs that are due now, through its door and way in, then end",
      "",
      "Run `lnk agent schedule <command> --help` for a command's flags and examples.",
      "",
    ].join("\n"),
  ],
  [
    ["agent", "memory", "--help"],
    [
      "Turn the agent's memory on or off, search it, and see its state",
      "",
      "Examples:",
      "  lnk agent memory on",
      "  lnk agent memory off",
      "  lnk agent memory status",
      '  lnk agent memory search "where does Bo live"',
      "",
      "Usage: lnk agent memory <command> [flags]",
      "",
      "Commands:",
      "  on      Turn the agent's memory on: an index of its notes and conversations it searches",
      "  off     Turn the agent's memory off; its notes and index are kept",
      "  status  Say whether the agent's memory is on, what its index holds, and whether its service runs",
      "  search  Search the agent's notes and conversations by words and by meaning",
      "",
      "Run `lnk agent memory <command> --help` for a command's flags and examples.",
      "",
    ].join("\n"),
  ],
  [
    ["agent", "skill", "--help"],
    [
      "Add skills to the agent from a git URL, list and remove them",
      "",
      "Examples:",
      "  lnk agent skill add https://github.com/anthropics/skills/tree/main/skills/pdf",
      "  lnk agent skill list",
      "  lnk agent skill remove pdf",
      "",
      "Usage: lnk agent skill <command> [flags]",
      "",
      "Commands:",
      "  add     Add a skill to the agent from a git URL, a GitHub folder's page or a path",
      "  list    List the agent's skills, each with what its SKILL.md says it does",
      "  remove  Remove one of the agent's skills",
      "",
      "Run `lnk agent skill <command> --help` for a command's flags and examples.",
      "",
    ].join("\n"),
  ],
  [
    ["agent", "skill", "add", "--help"],
    [
      "Add a skill to the agent from a git URL, a GitHub folder's page or a path",
      "",
      "Examples:",
      "  lnk agent skill add https://github.com/anthropics/skills/tree/main/skills/pdf",
      "  lnk agent skill add https://example.org/me/skills.git --name notes",
      "  lnk agent skill add ./my-skill --agent work",
      "",
      "Usage: lnk agent skill add <git url> [--name <name>] [--agent <name>] [--json]",
      "",
      "Clones the repository with your git (--depth 1, no hooks, no submodules) into Link's own folder,",
      "copies the skill (a folder with a SKILL.md) into the agent's Agent/skills/<name>/, then removes the",
      "clone. Links and anything not a file or folder are left out; a skill holds at most 1,000 files,",
      "64 MB and 1,000 folders at most 32 deep. It is named for its folder unless --name says, and the agent",
      "lists it in its prompt from its next start or wake.",
      "",
    ].join("\n"),
  ],
  [
    ["agent", "team", "--help"],
    [
      "Make teams of your agents: a shared folder, shared opinions, and messages between them",
      "",
      "Examples:",
      "  lnk agent team create research",
      '  lnk agent team add research main --purpose "Plans the work and asks the others"',
      "  lnk agent team remove research scout",
      "  lnk agent team list",
      "",
      "Usage: lnk agent team <command> [flags]",
      "",
      "Commands:",
      "  create  Make a team: its file in ~/.lnk/teams and the folder its members share",
      "  add     Put an agent on a team, or change its name, purpose or folders there",
      "  remove  Take an agent off a team, and its grant of the team's folder",
      "  list    List the teams",
      "  show    Show a team: its owner, folder, members and their purposes, and its shared spec",
      "",
      "Run `lnk agent team <command> --help` for a command's flags and examples.",
      "",
    ].join("\n"),
  ],
  [
    ["agent", "team", "add", "--help"],
    [
      "Put an agent on a team, or change its name, purpose or folders there",
      "",
      "Examples:",
      '  lnk agent team add research main --purpose "Plans the work and asks the others"',
      '  lnk agent team add research scout --name finder --purpose "Finds sources" --write notes --read drafts',
      "",
      'Usage: lnk agent team add <team> <agent> [--name <n>] --purpose "<p>" [--read <sub>]... [--write <sub>]... [--json]',
      "",
      "Grants the agent the whole team folder unless --read or --write name folders in it, written as",
      "[teams.<team>] in its Config/sandbox.toml, every other line of that file kept. --name is its name in",
      "the team (the agent's own unless given). All of a team's members are one owner's. Running members",
      "are restarted so each starts with the team as it is now; stopped ones stay stopped.",
      "",
    ].join("\n"),
  ],
  [
    ["agent", "list", "--help"],
    [
      "List your agents",
      "",
      "Examples:",
      "  lnk agent list",
      "  lnk agent list --json",
      "",
      "Usage: lnk agent list [--json]",
      "",
    ].join("\n"),
  ],
  [
    ["agent", "start", "--help"],
    [
      "Start an agent: its bridge and its harness, in its sandbox",
      "",
      "Examples:",
      "  lnk agent start",
      "  lnk agent start --agent work",
      "  lnk agent start --foreground",
      "  lnk agent start --no-sandbox",
      "",
      "Usage: lnk agent start [--agent <name>] [--sandbox | --no-sandbox] [--foreground] [--yes] [--json]",
      "",
      "--no-sandbox turns the agent's sandbox off and it stays off until --sandbox (GRT-6); it is",
      "the only way off: --yes never turns it off. `unsandboxed = false` in ~/.lnk/machine.toml refuses it.",
      "--foreground runs the agent in this terminal, its logs on stderr, until Ctrl-C.",
      "A start while another start or stop of the agent is at work is refused (AGENT_BUSY); one that",
      "finds the agent running says so and changes nothing.",
      "",
    ].join("\n"),
  ],
  [
    ["agent", "allow", "--help"],
    [
      "Let an agent reach more: change its grants (Config/sandbox.toml)",
      "",
      "Examples:",
      "  lnk agent allow --tcp github.com:22",
      "  lnk agent allow --read '~/src' --host api.github.com",
      "  lnk agent allow --files work=write --port 5432",
      "  lnk agent allow --network-mode host",
      "",
      "Usage: lnk agent allow [--agent <name>] [--read <path>] [--write <path>] " +
      "[--files <folder>=<none|read|write>] [--host <h>] [--tcp <host>:<port>] [--network-mode proxy|host] " +
      "[--lan-host <h>] [--port <n>] [--command <prog>] [--tool <name>] [--browser-host <h>] " +
      "[--write-protected <path>] [--json]",
      "",
      "The flags are those of `lnk sandbox run`, with the same meaning. Only the keys that change are",
      "rewritten; every comment of the file is kept. The result is checked as the next start would check",
      "it before it is written. A running agent keeps its old grants until it restarts.",
      "",
    ].join("\n"),
  ],
  [
    ["agent", "webhook", "--help"],
    [
      "Add, list, roll and remove the agent's webhooks: URLs whose posts reach it as strangers' messages",
      "",
      "Examples:",
      "  lnk agent webhook add gh --sift github",
      "  lnk agent webhook list",
      "  lnk agent webhook roll gh",
      "  lnk agent webhook remove gh",
      "",
      "Usage: lnk agent webhook <command> [flags]",
      "",
      "Commands:",
      "  add     Add a webhook: a URL on this machine whose posts reach the agent as a stranger's messages",
      "  list    List the agent's webhooks: their names, sifts and URLs, never their secrets",
      "  roll    Give a webhook a new secret, the previous one still taken for 24 hours, or end that with --done",
      "  remove  Remove a webhook: its posts are refused from now, its secrets go",
      "",
      "Run `lnk agent webhook <command> --help` for a command's flags and examples.",
      "",
    ].join("\n"),
  ],
  [
    ["agent", "webhook", "add", "--help"],
    [
      "Add a webhook: a URL on this machine whose posts reach the agent as a stranger's messages",
      "",
      "Examples:",
      "  lnk agent webhook add gh --sift github",
      "  lnk agent webhook add ci --sift secret --agent work",
      "",
      "Usage: lnk agent webhook add <name> --sift github|secret [--agent <name>] [--json]",
      "",
      "Prints the hook's URL, http://127.0.0.1:<port>/<name>, and its secret, this once: give the secret to",
      "the sender (GitHub's webhook secret, or the Bearer token of --sift secret). The sift checks each post:",
      "github: X-Hub-Signature-256 and X-GitHub-Delivery; secret: Authorization: Bearer <secret>, the id",
      "from Idempotency-Key or X-Request-Id, else the body's hash. A post reaches the agent quoted, from",
      "webhook:<name>, with only the tools [access] strangers_tools in its spec gives (none unless it says);",
      "the sender gets 202 and nothing of the answer. The URL answers on this machine only: `lnk tunnel open",
      "--public` makes it public. Only Link Harness gets webhooks. A running agent's first webhook starts it",
      "again, so its bridge listens.",
      "",
    ].join("\n"),
  ],
  [
    ["tunnel", "open", "--help"],
    [
      "Make the agent's webhooks public through a tunnel to a host you name, until you stop it",
      "",
      "Examples:",
      "  lnk tunnel open --public --via ssh you@example.com",
      "  lnk tunnel open --public --via ssh you@example.com --remote-port 8443",
      "  lnk tunnel open --public --via cloudflared",
      "",
      "Usage: lnk tunnel open --public --via ssh|cloudflared [<user@host>] [--remote-port <n>] [--ssh-option <opt>]... [--agent <name>] [--json]",
      "",
      "Webhooks listen on 127.0.0.1 only; this is the one way to make them public, and nothing opens it for",
      "you. --via ssh runs `ssh -N -R <remote port>:127.0.0.1:<webhook port> <user@host>`: the host's port",
      "(the webhook port's number unless --remote-port says, 0 for one the host picks) forwards to the",
      "agent's webhooks, public when the host's sshd has `GatewayPorts yes`. --ssh-option passes `-o <opt>`",
      "to ssh. --via cloudflared runs a quick tunnel, where cloudflared is installed. Prints the public",
      "address once open (with --json, one object), then runs until Ctrl-C.",
      "",
    ].join("\n"),
  ],
  [
    ["sandbox", "run", "--help"],
    [
      "Run a program in a sandbox, under a sandbox spec and grant flags",
      "",
      "Examples:",
      "  lnk sandbox run -- /bin/sh -c 'id; ls ~'",
      "  lnk sandbox run --spec ~/Link/Agents/main/Config/sandbox.toml -- curl https://example.com",
      "  lnk sandbox run --host example.com --read ~/src -- ls ~/src",
      "",
      "Usage: lnk sandbox run [--spec <file>] [--read <path>] [--write <path>] " +
      "[--files <folder>=<none|read|write>] [--host <h>] [--tcp <host>:<port>] [--network-mode proxy|host] " +
      "[--lan-host <h>] [--port <n>] [--command <prog>] [--tool <name>] [--browser-host <h>] " +
      "[--write-protected <path>] -- <command> [<arg>...]",
      "",
      "The spec is a sandbox file (an agent's Config/sandbox.toml, say); the grant flags add to it,",
      "as `lnk agent allow` takes them. The program gets a home and /tmp of its own, no network but",
      "its proxy (HTTP_PROXY and the rest) when the spec allows the internet, and exits with its code.",
      "",
    ].join("\n"),
  ],
];

for (const [args, help] of HELP) {
  Deno.test(`lnk ${args.join(" ")} prints its help on stdout and exits 0`, async () => {
    await using home = await tempHome();
    assert.deepEqual(await runCli(args, home), { code: 0, stdout: help, stderr: "" });
  });
}

Deno.test("every command answers --help with exit 0 and nothing on stderr", async () => {
  await using home = await tempHome();
  const all = commands(ROOT);
  assert.ok(all.length >= 9);
  for (const [path] of all) {
    const result = await runCli([...path.slice(1), "--help"], home);
    assert.deepEqual([result.code, result.stderr], [0, ""], path.join(" "));
  }
});

Deno.test("runCli() refuses an unknown command with exit 2, naming where to look", async () => {
  await using home = await tempHome();
  assert.deepEqual(await runCli(["bogus"], home), {
    code: 2,
    stdout: "",
    stderr: 'error: Cannot run "lnk bogus": unknown command\n  hint: Run `lnk --help` to see its commands\n',
  });
  assert.deepEqual(await runCli(["agent", "bogus"], home), {
    code: 2,
    stdout: "",
    stderr: 'error: Cannot run "lnk agent bogus": unknown command\n' +
      "  hint: Run `lnk agent --help` to see its commands\n",
  });
});

// These print a stream for a person (a chat, logs) or pass another program's output through.
const STREAMS = new Set(["lnk agent logs", "lnk agent chat", "lnk agent harness run", "lnk sandbox run"]);

Deno.test("every command a program reads takes --json", () => {
  const readers = commands(ROOT).filter(([path, command]) => !STREAMS.has(path.join(" ")) && !command.hidden);
  for (const [path, command] of readers) assert.match(command.usage, /--json/, path.join(" "));
});

Deno.test("runCli() refuses a mistyped verb as an unknown command with a did-you-mean, never a harness (CLI-4)", async () => {
  await using home = await tempHome();
  const result = await runCli(["agent", "strat"], home);
  assert.deepEqual(result, {
    code: 2,
    stdout: "",
    stderr: 'error: Cannot run "lnk agent strat": unknown command\n  hint: Did you mean `lnk agent start`?\n',
  });
});

Deno.test("runCli() refuses an unknown flag with a did-you-mean and exit 2", async () => {
  await using home = await tempHome();
  const result = await runCli(["agent", "list", "--jsno"], home);
  assert.equal(result.code, 2);
  assert.equal(
    result.stderr,
    'error: Cannot run the command: unknown flag "--jsno"\n  hint: Did you mean --json?\n',
  );
});

Deno.test("runCli() prints a usage error as JSON with --json", async () => {
  await using home = await tempHome();
  const result = await runCli(["agent", "status", "--json", "--bogus"], home);
  assert.equal(result.code, 2);
  assert.deepEqual(JSON.parse(result.stdout), {
    error: {
      code: "USAGE",
      message: 'Cannot run the command: unknown flag "--bogus"',
      hint: "Usage: lnk agent status [--agent <name>] [--json]",
    },
  });
});

Deno.test("runCli() refuses a second positional argument", async () => {
  await using home = await tempHome();
  const result = await runCli(["agent", "create", "a", "b"], home);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /Cannot read the argument "b": this command takes at most 1/);
});

Deno.test("--agent may be left out with one agent and is asked for with two (CLI-2)", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create"], home);
  const one = await runJson<{ name: string }>(["agent", "status"], home);
  assert.equal(one.name, "main");
  await runJson(["agent", "create", "work"], home);
  const two = await runCli(["agent", "status"], home);
  assert.equal(two.code, 2);
  assert.equal(
    two.stderr,
    "error: Cannot tell which agent you mean: you have 2\n  hint: Name one with --agent: main, work\n",
  );
  assert.equal((await runJson<{ name: string }>(["agent", "status", "--agent", "work"], home)).name, "work");
});

Deno.test("a positional argument is the verb's object: create, remove and restore take the agent (CLI-1, CLI-3)", async () => {
  await using home = await tempHome();
  await runJson(["agent", "create", "work"], home);
  assert.equal((await runCli(["agent", "remove", "work", "--yes"], home)).code, 0);
  assert.equal((await runCli(["agent", "restore", "work"], home)).code, 0);
  assert.equal(
    (await runJson<{ agents: { name: string }[] }>(["agent", "list"], home)).agents[0]!.name,
    "work",
  );
  // `lnk agent status work` does not read "work" as the agent: status takes no object.
  assert.equal((await runCli(["agent", "status", "work"], home)).code, 2);
});

Deno.test("an lnk-<name> program on the PATH plugs in as `lnk <name>` (CLI-8)", async () => {
  await using home = await tempHome();
  const bin = join(home.path, "bin");
  await Deno.mkdir(bin);
  await Deno.writeTextFile(join(bin, "lnk-matrix"), '#!/bin/sh\necho "matrix plugin got: $*"\n', {
    mode: 0o755,
  });
  home.env.set("PATH", `${bin}:${home.env.get("PATH")}`);
  const result = await runLnk(["matrix", "connect", "--token", "x"], home);
  assert.deepEqual(result, { code: 0, stdout: "matrix plugin got: connect --token x\n", stderr: "" });
});

Deno.test("lnk with no command prints the root help on stderr and exits 2", async () => {
  await using home = await tempHome();
  assert.deepEqual(await runCli([], home), { code: 2, stdout: "", stderr: ROOT_HELP });
});
