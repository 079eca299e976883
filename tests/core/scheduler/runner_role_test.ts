import assert from "node:assert/strict";
import { join } from "node:path";
import { READY_PREFIX, roleArgv } from "../../../core/base/mod.ts";
import {
  agentRunnerFilePath,
  keepAgentRunner,
  readRunnerFile,
  startAgentRunner,
  startRunner,
  writeRunnerFile,
} from "../../../core/scheduler/mod.ts";
import { runLnk, tempHome } from "../../support/mod.ts";
import { FakeClock } from "../../support/fake_clock.ts";

type Entry = Record<string, unknown> & { msg?: string };

/** A runner role as a child, its log lines read as they come, its stdin held open. */
class RunnerChild implements AsyncDisposable {
  readonly child: Deno.ChildProcess;
  #lines: Entry[] = [];
  #cursor = 0;
  #waiter: (() => void) | undefined;
  #stdin: WritableStreamDefaultWriter<Uint8Array>;
  #reading: Promise<void>;

  constructor(args: string[], env: Record<string, string>) {
    const [exe, ...rest] = roleArgv(["scheduler", "runner", ...args]);
    this.child = new Deno.Command(exe!, { args: rest, env, stdin: "piped", stdout: "piped", stderr: "piped" })
      .spawn();
    this.#stdin = this.child.stdin.getWriter();
    this.#reading = Promise.all([this.#read(this.child.stderr, false), this.#read(this.child.stdout, true)])
      .then(() => {});
  }

  async #read(stream: ReadableStream<Uint8Array>, stdout: boolean): Promise<void> {
    let buffer = "";
    for await (const text of stream.pipeThrough(new TextDecoderStream())) {
      buffer += text;
      let nl: number;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (stdout && line.startsWith(READY_PREFIX)) this.#push({ msg: "READY" });
        else if (!stdout) this.#push(JSON.parse(line) as Entry);
      }
    }
  }

  #push(entry: Entry): void {
    this.#lines.push(entry);
    this.#waiter?.();
  }

  /** The next log line matching, after those already taken. */
  async next(match: (e: Entry) => boolean): Promise<Entry> {
    for (;;) {
      while (this.#cursor < this.#lines.length) {
        const entry = this.#lines[this.#cursor++]!;
        if (match(entry)) return entry;
      }
      const { promise, resolve } = Promise.withResolvers<void>();
      this.#waiter = resolve;
      await promise;
    }
  }

  /** Closes its stdin: its parent is gone. */
  async closeStdin(): Promise<void> {
    await this.#stdin.close().catch(() => {});
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.closeStdin();
    await this.child.status;
    await this.#reading;
  }
}

const agent = (id: string) => ({ id, way_in: `/run/${id}/send.sock` });

Deno.test("lnk scheduler runner reads its file again at each change, never restarting; it runs in its zone and ends with its parent (PRC-7, U-47)", async () => {
  await using home = await tempHome();
  const file = join(home.paths.lnk, "runners", "Europe%2FParis.json");
  await writeRunnerFile(file, { zone: "Europe/Paris", agents: [agent("agenta1")] });
  const env = { ...home.env.toObject(), TZ: "Europe/Paris" };
  await using runner = new RunnerChild(["--tz", "Europe/Paris", "--file", file, "--with-parent"], env);
  const first = await runner.next((e) => e.msg === "Runner agents");
  assert.deepEqual([first.agents, first.added], [["agenta1"], ["agenta1"]]);
  const started = await runner.next((e) => e.msg === "Runner started");
  assert.equal(started.process_zone, "Europe/Paris");
  await runner.next((e) => e.msg === "READY");
  await writeRunnerFile(file, { zone: "Europe/Paris", agents: [agent("agenta1"), agent("agentb1")] });
  const added = await runner.next((e) => e.msg === "Runner agents");
  assert.deepEqual([added.agents, added.added, added.removed], [["agenta1", "agentb1"], ["agentb1"], []]);
  await writeRunnerFile(file, { zone: "Europe/Paris", agents: [agent("agentb1")] });
  const removed = await runner.next((e) => e.msg === "Runner agents");
  assert.deepEqual([removed.agents, removed.removed, removed.leaving], [["agentb1"], ["agenta1"], []]);
  // One process throughout: its parent's pipe closing is what ends it.
  await runner.closeStdin();
  await runner.next((e) => e.msg === "Runner stopped");
  assert.equal((await runner.child.status).code, 0);
});

Deno.test("startRunner() starts a runner in its zone and stop() ends it", async () => {
  await using home = await tempHome();
  const file = join(home.paths.lnk, "runners", "Asia%2FTokyo.json");
  await writeRunnerFile(file, { zone: "Asia/Tokyo", agents: [] });
  await using runner = await startRunner("Asia/Tokyo", { file });
  const environ = (await Deno.readTextFile(`/proc/${runner.pid}/environ`)).split("\0");
  assert.ok(environ.includes("TZ=Asia/Tokyo"));
  await runner.stop();
  assert.equal((await runner.status).code, 0);
});

Deno.test("lnk scheduler runner refuses a time zone it does not know", async () => {
  await using home = await tempHome();
  const result = await runLnk(["scheduler", "runner", "--tz", "Mars/Olympus"], home);
  assert.equal(result.code, 1);
  assert.match(result.stderr, /"code":"USAGE"/);
});

Deno.test("startAgentRunner() runs one runner for an agent's own bridge, its file in the agent's state folder (PRC-5)", async () => {
  await using home = await tempHome();
  const wayIn = join(home.paths.net("agenta1"), "send.sock");
  await using runner = await startAgentRunner(home.paths, { id: "agenta1", zone: "Europe/Paris", wayIn });
  const file = agentRunnerFilePath(home.paths, "agenta1");
  assert.deepEqual(await readRunnerFile(file, "Europe/Paris"), {
    zone: "Europe/Paris",
    agents: [{ id: "agenta1", way_in: wayIn }],
  });
  const cmdline = (await Deno.readTextFile(`/proc/${runner.pid}/cmdline`)).split("\0");
  assert.deepEqual(cmdline.slice(cmdline.indexOf("scheduler")), [
    "scheduler",
    "runner",
    "--tz",
    "Europe/Paris",
    "--with-parent",
    "--file",
    file,
    "",
  ]);
});

Deno.test("keepAgentRunner() starts a runner that failed its start again, and one killed after, for as long as it is kept (PRC-5)", async () => {
  await using home = await tempHome();
  const clock = new FakeClock();
  const wayIn = join(home.paths.net("agenta1"), "send.sock");
  // A zone the runner refuses: its start fails before it is ready, as one killed then does.
  const agent = { id: "agenta1", zone: "Mars/Olympus", wayIn };
  await using kept = await keepAgentRunner(home.paths, agent, { clock });
  assert.equal(kept.current?.pid, undefined, "a runner that failed its start");
  await clock.waitForSleepers(1);
  agent.zone = "Europe/Paris";
  const second = kept.running();
  await clock.advance(1_000);
  const first = await second;
  assert.equal(first.zone, "Europe/Paris");
  Deno.kill(first.pid, "SIGKILL");
  await clock.waitForSleepers(1);
  const third = kept.running();
  await clock.advance(1_000);
  assert.notEqual((await third).pid, first.pid);
  assert.equal(kept.current?.pid, (await third).pid);
});
