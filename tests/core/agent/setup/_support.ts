/**
 * A stand-in outside adapter for the setup steps' tests: `lnk-<harness>` on the test home's PATH,
 * a shell script whose install writes files into its HOME (the install folder), whose configure
 * writes a config into its HOME (the harness home), whose endpoint is a program its install wrote
 * (running the smallest stdio ACP agent, copied into the agent's Home) and whose health asks a port. Each step's body can be replaced.
 */
import { join } from "node:path";
import { runJson, type TempHome, tempHome } from "../../../support/mod.ts";

export type Steps = Partial<
  Record<"contract" | "internet-hosts" | "install" | "configure" | "link" | "health", string>
>;

/** The bodies the stand-in runs unless a test says: each a line of shell. */
export const DEFAULT_STEPS: Required<Steps> = {
  contract:
    `echo '{"version":2,"commands":["contract","internet-hosts","install","configure","link","endpoint","health"]}'`,
  "internet-hosts": `echo '{"hosts":["registry.example"]}'`,
  install: `echo "fetching the harness" >&2; mkdir -p "$HOME/bin"; echo run >> "$HOME/installs.log"; ` +
    `printf '#!/bin/sh\\nexec %s run --allow-env %s\\n' "$DENO" "$ECHO" > "$HOME/bin/agent"; chmod +x "$HOME/bin/agent"; ` +
    `printf '#!/bin/sh\\necho tool\\n' > "$HOME/bin/tool"; chmod +x "$HOME/bin/tool"; ` +
    `echo '{"version":"1.2.3","changed":true}'`,
  configure:
    `echo run >> "$HOME/configures.log"; mkdir -p "$HOME/conf"; printf '%s\\n' "$INPUT" > "$HOME/input.json"; ` +
    `(touch "$INSTALL/planted" 2>/dev/null && echo install-writable >> "$HOME/configures.log"); ` +
    `"$INSTALL/bin/tool" >> "$HOME/configures.log"; ` +
    `echo '{"model":"from-link"}' > "$HOME/conf/config.json"; echo '{"changed":true,"wrote":["conf/config.json"]}'`,
  link: `echo run >> "$HOME/links.log"; echo '{}'`,
  health: `echo '{"ok":true,"detail":"answers"}'`,
};

/** Writes (or rewrites) the stand-in adapter `lnk-<harness>` into the home's bin/. */
export async function writeAdapter(home: TempHome, harness: string, steps: Steps = {}): Promise<string> {
  const bin = join(home.path, "bin");
  await Deno.mkdir(bin, { recursive: true });
  const agentFile = join(home.path, "Link", "Agents", "a", "Home", "echo.ts");
  // The harness's program is in its install folder, which `install` wrote: it runs the echo agent.
  const endpoint = JSON.stringify({
    stdio: { command: [join(home.paths.installDir(harness), "bin", "agent")] },
  });
  const all = { ...DEFAULT_STEPS, ...steps };
  const path = join(bin, `lnk-${harness}`);
  await Deno.writeTextFile(
    path,
    `#!/bin/sh\nINPUT=$(cat)\nINSTALL='${home.paths.installDir(harness)}'\nDENO='${Deno.execPath()}'\n` +
      `ECHO='${agentFile}'\ncase "$1" in\n` +
      Object.entries(all).map(([step, body]) => `${step}) ${body};;\n`).join("") +
      `endpoint) echo '${endpoint}';;\n*) echo '{}';;\nesac\n`,
  );
  await Deno.chmod(path, 0o755);
  return path;
}

/** A home whose PATH holds the stand-in adapter. */
export async function homeWithAdapter(harness: string, steps: Steps = {}): Promise<TempHome> {
  const home = await tempHome();
  await writeAdapter(home, harness, steps);
  home.env.set("PATH", `${join(home.path, "bin")}:${home.env.get("PATH")}`);
  return home;
}

/** Creates agent `a` on the harness, with the echo agent in its Home; its id. */
export async function createAgent(home: TempHome, harness: string, modelUrl: string): Promise<string> {
  const { id } = await runJson<{ id: string }>(
    ["agent", "create", "a", "--harness", harness, "--model-url", modelUrl],
    home,
  );
  await Deno.copyFile(
    new URL("../../../fixtures/acp_echo_child.ts", import.meta.url),
    join(home.path, "Link", "Agents", "a", "Home", "echo.ts"),
  );
  return id;
}

/** How many lines a log the stand-in appends to holds (0 when there is none). */
export async function runs(path: string): Promise<number> {
  try {
    return (await Deno.readTextFile(path)).split("\n").filter((l) => l === "run").length;
  } catch {
    return 0;
  }
}
