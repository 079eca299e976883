// Run by as_user_test.ts as an ordinary user (setpriv), bundled: plants links and tries the
// protected places from inside real sandboxes, as the root-run tests do, and prints what happened
// as one JSON object. Link, bubblewrap and the sandboxed program all run as that user here.
import { join } from "node:path";
import { agentFixture } from "./_support.ts";

const results: Record<string, string> = {};
const outcome = (p: Promise<{ stdout: string }>) =>
  p.then((r) => r.stdout, (err) => `${err.code}: ${err.message.replace(/"[^"]*\/(\S+?)"/g, '"…/$1"')}`);

{
  await using fx = await agentFixture();
  results.uid = String(Deno.uid());
  await Deno.mkdir(join(fx.home, "proj", "docs"), { recursive: true });
  const write = '[paths]\nwrite = ["~/proj"]\n';
  results.plant = await outcome(
    fx.sh(`cd ${fx.home}/proj && mv docs docs.old && ln -s ${fx.home}/.ssh docs && echo planted`, {
      spec: write,
    }),
  );
  results.readInWrite = await outcome(
    fx.sh(`cat ${fx.home}/proj/docs/id_ed25519`, { spec: `${write}read = ["~/proj/docs"]\n` }),
  );
  const up = "../".repeat(fx.agentHome.split("/").length + 2);
  await outcome(fx.sh(`ln -s ${up}tmp ${fx.agentHome}/tmpdir`));
  results.homeFolder = await outcome(fx.sh("ls", { spec: '[files]\n"." = "read"\ntmpdir = "write"\n' }));

  const repo = join(fx.agentHome, "app");
  await new Deno.Command("git", { args: ["init", "-q", repo] }).output();
  results.repo = await outcome(fx.sh(
    `cd ${repo}; id -u; w .git/config; w .git/hooks/pre-commit; mv .git .git.old 2>/dev/null || echo no-rename;
     mkdir .vscode/x 2>/dev/null || echo no-vscode; ln .git/config ../c 2>/dev/null || echo no-link; w Makefile`,
  ));
  results.lifted = await outcome(
    fx.sh(`cd ${repo}; w .git/hooks/pre-commit; w .git/config`, {
      spec: `[protected]\nwritable = ["${repo}/.git/hooks"]\n`,
    }),
  );
  results.after = [...Deno.readDirSync(repo)].map((e) => e.name).sort().join(" ");
}
Deno.stdout.writeSync(new TextEncoder().encode(`${JSON.stringify(results)}\n`));
