/**
 * The attack suite, Link's tools (SCH-9, SBX-18, SBX-19): each attempt made by a command of the
 * `run` tool inside a real sandboxed Link Harness (`lnk agent start`), at the tool proxy its harness
 * calls. The secret is the harness's alone, handed on its stdin: no environment, argument list,
 * file or memory a command reaches holds it, and the proxy refuses every call without it. Run as
 * root here and as an ordinary user by as_user_test.ts.
 */
import assert from "node:assert/strict";
import { joinPath } from "../../core/base/mod.ts";
import { JobStore } from "../../core/scheduler/mod.ts";
import { serveFakeModel } from "../fakes/fake_model.ts";
import { runCli, runJson, tempHome } from "../support/mod.ts";
import { createAgent, runStdout, sandboxedTest, toolResult } from "../support/sandboxed_agent.ts";

sandboxedTest(
  "run's commands cannot call Link's tools: no secret to find in any process, file or memory, and the tool proxy refuses them (SCH-9, SBX-19)",
  async () => {
    await using model = await serveFakeModel();
    await using home = await tempHome();
    const agent = await createAgent(home, model);
    await runJson(["agent", "start"], home);
    const sock = joinPath(home.paths.net(agent.id), "tools.sock");
    // The secret's prefix is put together at run time, so this script's own text never holds it.
    const script = [
      // The tool proxy's address with a secret in it: its port, the prefix, then 43 letters of base64url.
      'L=_link; S=/s/; me=$$; R="3129/$L$S[A-Za-z0-9_-]{43}"',
      'pids=$(ls /proc | grep -E "^[0-9]+$" | grep -vx "$me")',
      'n=0; for p in $pids; do cat /proc/$p/environ /proc/$p/cmdline 2>/dev/null | grep -aqE "$R" && n=$((n+1)); done',
      'echo "find the secret in another process\'s environment or arguments: $n found"',
      "n=0; for p in $pids; do dd if=/proc/$p/mem of=/dev/null bs=1 count=1 skip=65536 2>/dev/null && n=$((n+1)); done",
      'echo "read another process\'s memory: $n readable"',
      'n=0; for p in $pids; do for f in /proc/$p/fd/*; do [ -r "$f" ] && head -c 1 "$f" >/dev/null 2>&1 && n=$((n+1)); done; done',
      "echo \"read another process's open files (the harness's stdin): $n readable\"",
      'found=$(grep -rlasE "$R" "$HOME" "$TMPDIR" /tmp 2>/dev/null | head -3)',
      'echo "find the secret in a file of Home or the temporary folders: ${found:-none}"',
      'post() { curl -s -m 10 -o /dev/null -w "%{http_code}" -X POST -H "content-type: application/json" ' +
      '-H "accept: application/json, text/event-stream" ' +
      '-d \'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"schedule","arguments":{"message":"x","in":"1m"},' +
      '"_meta":{"link.local/thread":"link:main"}}}\' "$@"; }',
      'echo "call the scheduler with no secret: $(post http://127.0.0.1:3129/scheduler)"',
      'echo "call the scheduler with a guessed secret: $(post http://127.0.0.1:3129/$L${S}guess/scheduler)"',
      `echo "call the tool proxy's socket itself with a guessed secret: $(post --unix-socket ${sock} http://x/$L\${S}guess/scheduler)"`,
    ].join("\n");
    model.replyToolCall("run", { command: ["sh", "-c", script] });
    model.replyToolCall("schedule", { message: "the harness itself may", in: "1h" });
    model.reply("Done.");
    const sent = await runCli(["agent", "chat", "send", "try"], home);
    assert.equal(sent.code, 0, sent.stderr);
    await model.nextRequest();
    assert.equal(
      runStdout(toolResult(await model.nextRequest())),
      [
        "find the secret in another process's environment or arguments: 0 found",
        "read another process's memory: 0 readable",
        "read another process's open files (the harness's stdin): 0 readable",
        "find the secret in a file of Home or the temporary folders: none",
        "call the scheduler with no secret: 403",
        "call the scheduler with a guessed secret: 403",
        "call the tool proxy's socket itself with a guessed secret: 403",
      ].join("\n"),
    );
    // The harness, holding the secret, calls the same tool: only its call made a job.
    assert.match(toolResult(await model.nextRequest()), /^Scheduled j-[a-z0-9]{20}: at /);
    const { jobs } = await new JobStore(joinPath(agent.layout.agent, "schedule")).list();
    assert.deepEqual(jobs.map((j) => j.text), ["the harness itself may"]);
    await runJson(["agent", "stop"], home);
  },
);

sandboxedTest(
  "each start of the agent hands its harness the new secret its tool proxy takes (SBX-19)",
  async () => {
    await using model = await serveFakeModel();
    await using home = await tempHome();
    const agent = await createAgent(home, model);
    await runJson(["agent", "start"], home);
    model.replyToolCall("schedule", { message: "first", in: "1h" });
    model.reply("ok");
    assert.equal((await runCli(["agent", "chat", "send", "one"], home)).code, 0);
    await runJson(["agent", "stop"], home);
    await runJson(["agent", "start"], home);
    model.replyToolCall("schedule", { message: "second", in: "1h" });
    model.reply("ok");
    assert.equal((await runCli(["agent", "chat", "send", "two"], home)).code, 0);
    const { jobs } = await new JobStore(joinPath(agent.layout.agent, "schedule")).list();
    assert.deepEqual(jobs.map((j) => j.text).sort(), ["first", "second"]);
    await runJson(["agent", "stop"], home);
  },
);
