import { LinkError } from "../../base/mod.ts";
import type { GrantFlags } from "../../../sandbox/mod.ts";
import type { AgentContext } from "../context.ts";
import type { AgentSettings } from "../settings.ts";
import { needsOfAdapter } from "./ask_needs.ts";
import { type Answer, loadAnswers, type Need, needKey, needsOf, saveAnswers } from "./needs_answers.ts";

/** What `lnk agent harness allow|deny|reset` changed in the harness's layer. */
export interface AnswersChanged {
  readonly harness: string;
  readonly path: string;
  readonly changed: readonly string[];
}

/**
 * Changes the answers in a harness's grant layer (GRT-3, CLI-5): each flag given must be one of the
 * needs its adapter declares (a flag it never declared is refused, saying so), and each risk named
 * one of its risks. The layer is rewritten as a start's asking would have written it.
 */
export async function changeHarnessAnswers(
  ctx: AgentContext,
  agent: AgentSettings,
  harness: string,
  mode: Answer,
  given: { flags: GrantFlags; risks: readonly string[] },
): Promise<AnswersChanged> {
  const needs = await needsOfAdapter(ctx, agent, harness);
  const declared = needsOf(needs);
  const keys = new Set(declared.map(needKey));
  const asked: Need[] = Object.entries(given.flags).flatMap(([flag, values]) =>
    (Array.isArray(values) ? values : [values]).map((value) => ({ flag, value: String(value) }))
  );
  const risks = new Set((needs?.risks ?? []).map((risk) => risk.name));
  const strange = [
    ...asked.filter((need) => !keys.has(needKey(need))).map(needKey),
    ...given.risks.filter((name) => !risks.has(name)).map((name) => `--risk ${name}`),
  ];
  if (strange.length) {
    throw new LinkError(
      "USAGE",
      `Cannot ${mode} ${strange.join(" ")} for harness "${harness}": its adapter never declared ${
        strange.length === 1 ? "it" : "them"
      }`,
      {
        hint: declared.length || risks.size
          ? `It declares: ${[...declared.map(needKey), ...[...risks].map((r) => `--risk ${r}`)].join(" ")}`
          : "It declares no needs: grant the agent itself with `lnk agent allow`",
      },
    );
  }
  const kept = await loadAnswers(ctx.paths, harness);
  const next = { needs: { ...kept.needs }, risks: { ...kept.risks } };
  for (const need of asked) next.needs[needKey(need)] = mode;
  for (const name of given.risks) next.risks[name] = mode;
  await saveAnswers(ctx.paths, harness, next, declared);
  return {
    harness,
    path: ctx.paths.harnessToml(harness),
    changed: [...asked.map(needKey), ...given.risks.map((name) => `--risk ${name}`)],
  };
}

/**
 * Forgets a harness's answers (GRT-19, `lnk agent harness reset`): the grants they made and the
 * answers themselves (a grant written there by hand answers its need, and goes too), so the next
 * start asks again. The file's comments and other tables stay.
 */
export async function resetHarnessAnswers(ctx: AgentContext, harness: string): Promise<AnswersChanged> {
  const kept = await loadAnswers(ctx.paths, harness);
  const forgotten = [...Object.keys(kept.needs), ...Object.keys(kept.risks).map((name) => `--risk ${name}`)];
  const denyAll = {
    needs: Object.fromEntries(Object.keys(kept.needs).map((key) => [key, "deny" as Answer])),
    risks: {},
  };
  if (forgotten.length) {
    // Denying each first takes out the grants the allows wrote; then the answers go.
    await saveAnswers(ctx.paths, harness, denyAll, []);
    await saveAnswers(ctx.paths, harness, { needs: {}, risks: {} }, []);
  }
  return { harness, path: ctx.paths.harnessToml(harness), changed: forgotten };
}
