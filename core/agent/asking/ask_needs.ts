import { isLinkError, LinkError } from "../../base/mod.ts";
import {
  answers as answersField,
  askAdapter,
  askContract,
  BUILT_INS,
  findAdapter,
  type NeedsAnswer,
} from "../../adapters/mod.ts";
import type { AgentContext } from "../context.ts";
import { listAgents } from "../agents.ts";
import type { AgentSettings } from "../settings.ts";
import { adapterInput } from "../adapter_input.ts";
import { ownGrantKeys } from "./own_grants.ts";
import {
  type Answer,
  type KeptAnswers,
  loadAnswers,
  needKey,
  needsOf,
  saveAnswers,
  sectionOf,
} from "./needs_answers.ts";

/** How a start or a switch may ask: a person at a terminal, or `--yes`. */
export interface Asking {
  /** `--yes`: declared needs and required risks granted, optional risks left off (GRT-22). */
  readonly yes?: boolean;
  /** Asks a person a yes/no question; absent when there is no terminal. */
  readonly ask?: (question: string) => Promise<string | undefined>;
  /** Says a line to the person (the needs listed, in the warning colour). */
  readonly note?: (text: string) => void;
}

/** What the asking settled: the risks allowed, handed to the adapter as `allowed` (ADP-13, GRT-21). */
export interface Asked {
  readonly allowed: readonly string[];
}

/** The harnesses whose endpoint Link runs itself and whose needs no one is asked. */
const OWN = new Set(["link", "mini"]);

/**
 * Asks for an outside harness's needs and risks before it runs (GRT-18..GRT-22): each need not yet
 * answered, as `lnk agent allow` flags with the adapter's why, and each risk, in the warning colour,
 * naming the agents here that run the harness; one yes/no. Answers are kept with the needs in
 * `~/.lnk/harnesses/<harness>.toml`, so only new needs are asked; a deny is an answer too. Without a
 * terminal a start with new needs is refused naming `--yes`, and an optional risk stays off. A
 * built-in adapter's needs are granted as they are (Link's own: its install folder, acp's program) and only its risks asked;
 * Link's own harnesses ask nothing. A required risk denied refuses.
 */
export async function askHarnessNeeds(
  ctx: AgentContext,
  agent: AgentSettings,
  asking: Asking,
  options: { harness?: string; needs?: NeedsAnswer; doing?: string } = {},
): Promise<Asked> {
  const harness = options.harness ?? agent.harness;
  if (OWN.has(harness)) return { allowed: [] };
  const adapter = await findAdapter(harness, { env: ctx.env, builtIns: BUILT_INS });
  // A built-in adapter's needs are Link's own (a harness's install folder, acp's program), granted
  // at its start; its risks are asked as any harness's (GRT-21, GRT-22).
  const builtIn = "builtIn" in adapter;
  const needs = options.needs ?? await needsOfAdapter(ctx, agent, harness);
  const kept = await loadAnswers(ctx.paths, harness);
  const all = builtIn ? [] : needsOf(needs);
  // The agent's own grants are never asked (GRT-19): a need they hold is no question.
  const own = await ownGrantKeys(ctx, agent);
  const fresh = all.filter((need) => kept.needs[needKey(need)] === undefined && !own.has(needKey(need)));
  const risks = needs?.risks ?? [];
  const freshRisks = risks.filter((risk) =>
    kept.risks[risk.name] === undefined && !(asking.yes && risk.optional)
  );
  // Without a terminal an optional risk stays off, unanswered, for a terminal to ask later (GRT-22).
  const noTerminal = !asking.yes && !asking.ask;
  if (noTerminal && !fresh.length && freshRisks.every((risk) => risk.optional)) {
    return settle(agent, harness, kept, risks);
  }
  if (fresh.length || freshRisks.length) {
    const next: { needs: Record<string, Answer>; risks: Record<string, Answer> } = {
      needs: { ...kept.needs },
      risks: { ...kept.risks },
    };
    let answer: Answer;
    if (asking.yes) answer = "allow";
    else if (!asking.ask) {
      throw new LinkError(
        "REFUSED",
        `Cannot ${options.doing ?? `start agent "${agent.name}"`} on harness "${harness}": it needs ${
          [...fresh.map(needKey), ...freshRisks.map((r) => `risk ${r.name}`)].join(", ")
        }, and there is no terminal to ask in`,
        {
          hint:
            "Run it in a terminal to answer, or pass --yes to grant what it declares (optional risks stay off)",
        },
      );
    } else {
      const runners = (await listAgents(ctx)).filter((a) => a.harness === harness).map((a) => a.name);
      if (!runners.includes(agent.name)) runners.push(agent.name);
      asking.note?.(warn(ctx, questionText(harness, runners, needs!, fresh, freshRisks)));
      const said = await asking.ask(`Allow these for harness "${harness}"? [y/N]`);
      answer = /^y(es)?$/i.test((said ?? "").trim()) ? "allow" : "deny";
    }
    for (const need of fresh) next.needs[needKey(need)] = answer;
    for (const risk of freshRisks) next.risks[risk.name] = answer;
    await saveAnswers(ctx.paths, harness, next, all);
    return settle(agent, harness, next, risks);
  }
  return settle(agent, harness, kept, risks);
}

/** What an outside harness's adapter declares it needs (none for a built-in or Link's own). */
export async function needsOfAdapter(
  ctx: AgentContext,
  agent: AgentSettings,
  harness: string,
): Promise<NeedsAnswer | undefined> {
  const adapter = await findAdapter(harness, { env: ctx.env, builtIns: BUILT_INS });
  // Asked as the start asks it, for the harness named (the one `use` switches to).
  const input = adapterInput({ ...agent, harness }, true, { install: ctx.paths.installDir(harness) });
  const contract = await askContract(adapter, { env: ctx.env, input });
  if (!answersField(contract, "needs")) return undefined;
  try {
    return await askAdapter(adapter, "needs", { env: ctx.env, input });
  } catch (err) {
    // A `needs` that exits with an error needs nothing more (GRT-17): the start says so in its log.
    const exited = isLinkError(err, "SERVICE_FAILED") && typeof err.cause === "object" &&
      err.cause !== null &&
      "exit" in err.cause;
    if (exited) return undefined;
    throw err;
  }
}

/** A required risk denied refuses (GRT-22); the risks allowed go to the adapter (ADP-13). */
function settle(
  agent: AgentSettings,
  harness: string,
  kept: KeptAnswers,
  risks: NeedsAnswer["risks"],
): Asked {
  const denied = risks.filter((risk) => !risk.optional && kept.risks[risk.name] === "deny");
  if (denied.length) {
    throw new LinkError(
      "REFUSED",
      `Cannot start agent "${agent.name}": harness "${harness}" requires risk ${
        denied.map((r) => `"${r.name}"`).join(", ")
      }, which was denied`,
      { hint: `Run \`lnk agent harness reset --harness ${harness}\` and start it again to answer anew` },
    );
  }
  return { allowed: risks.filter((risk) => kept.risks[risk.name] === "allow").map((risk) => risk.name) };
}

function questionText(
  harness: string,
  runners: readonly string[],
  needs: NeedsAnswer,
  fresh: ReturnType<typeof needsOf>,
  risks: NeedsAnswer["risks"],
): string {
  const lines = [
    `Harness "${harness}" (run here by ${runners.map((n) => `"${n}"`).join(", ")}) asks for:`,
  ];
  for (const need of fresh) {
    const why = needs.why[sectionOf(need.flag)];
    lines.push(`  ${needKey(need)}${why ? `  (${why})` : ""}`);
  }
  for (const risk of risks) {
    lines.push(
      `  risk ${risk.name}${risk.optional ? " (optional)" : ""}: ${risk.why}${
        risk.without ? `; without it ${risk.without}` : ""
      }`,
    );
  }
  // The adapter's words are shown, never obeyed: no escape or control character reaches the terminal.
  return lines.map(printable).join("\n");
}

/** A line with its control characters (escapes, carriage returns, newlines) shown as `?`. */
function printable(line: string): string {
  // deno-lint-ignore no-control-regex
  return line.replace(/[\u0000-\u001f\u007f-\u009f]/g, "?");
}

/** The warning colour, unless NO_COLOR is set (https://no-color.org). */
function warn(ctx: AgentContext, text: string): string {
  const off = ctx.env.get("NO_COLOR");
  return off !== undefined && off !== "" ? text : `\x1b[33m${text}\x1b[0m`;
}
