import { type AgentSettings, layoutOf, loadSettings } from "../../../core/agent/mod.ts";
import { runJson, type TempHome, tempHome } from "../../support/mod.ts";

/** A temporary home with one agent, its Agent/skills/ and a secret folder beside it no add may touch. */
export interface SkillsHome extends AsyncDisposable {
  readonly home: TempHome;
  readonly agent: AgentSettings;
  readonly skills: string;
  /** A folder of the person's (as ~/.ssh is) that a link planted by the agent points at. */
  readonly secret: string;
}

/** Makes a home with the agent `main` and a secret folder holding one file. */
export async function skillsHome(): Promise<SkillsHome> {
  const home = await tempHome();
  const { id } = await runJson<{ id: string }>(["agent", "create"], home);
  const agent = await loadSettings(home.paths, id);
  const secret = `${home.path}/.ssh`;
  await Deno.mkdir(secret, { mode: 0o700 });
  await Deno.writeTextFile(`${secret}/id_ed25519`, "private key");
  return {
    home,
    agent,
    skills: layoutOf(home.paths, agent).collection("skills"),
    secret,
    [Symbol.asyncDispose]: () => home[Symbol.asyncDispose](),
  };
}

/** The names in a folder, sorted. */
export async function namesIn(dir: string): Promise<string[]> {
  try {
    return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return [];
    throw err;
  }
}
