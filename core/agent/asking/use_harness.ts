import { atomicWrite, isLinkError, LinkError, readTextIfExists } from "../../base/mod.ts";
import {
  ACP_COMMAND_EXAMPLE,
  answers as answersField,
  askAdapter,
  askContract,
  BUILT_INS,
  findAdapter,
  KNOWN,
  splitCommand,
} from "../../adapters/mod.ts";
import type { AgentContext } from "../context.ts";
import { type AgentSettings, updateSettings } from "../settings.ts";
import { askHarnessNeeds, type Asking, needsOfAdapter } from "./ask_needs.ts";
import { loadAnswers, needKey, needsOf, saveAnswers } from "./needs_answers.ts";

/** What `lnk agent use` did: the harness now, the one before, what was asked, the connections it stops. */
export interface HarnessSwitched {
  readonly agent: string;
  readonly from: string;
  readonly to: string;
  /** The needs of the new harness beyond the old one's, as allow flags (none: a narrower switch). */
  readonly wider: readonly string[];
  /** The agent's connections the new harness does not answer (they stay in the settings). */
  readonly silent: readonly string[];
}

/**
 * Switches an agent's harness (GRT-20, CON-2, ADP-6): the needs of the new harness beyond the old
 * one's are listed with what each opens and asked once (in the terminal, or --yes); a no keeps the
 * agent where it was and writes nothing. A narrower switch asks nothing. The connections the new
 * harness does not speak are named; they stay in the settings, so switching back brings them back.
 * `use acp` needs the ACP command, as create does. The caller restarts a running agent.
 */
export async function useHarness(
  ctx: AgentContext,
  agent: AgentSettings,
  harness: string,
  asking: Asking & { acpCommand?: string },
): Promise<HarnessSwitched> {
  if (harness === agent.harness) {
    throw new LinkError("USAGE", `Agent "${agent.name}" runs harness "${harness}" already`, {
      hint: "Name another harness, such as `lnk agent use link`",
    });
  }
  const acp = acpOf(agent, harness, asking.acpCommand);
  const next: AgentSettings = { ...agent, harness, ...(acp ? { acp } : {}) };
  // Unknown harness or adapter garbage fails here, before anything is written.
  await findAdapter(harness, { env: ctx.env, builtIns: BUILT_INS }).catch((err) => {
    throw new LinkError(
      "HARNESS_MISSING",
      `Cannot switch agent "${agent.name}": there is no harness "${harness}"`,
      {
        hint: `Harnesses Link knows: ${
          Object.keys(KNOWN).join(", ")
        }; another must be on the PATH as lnk-${harness}`,
        cause: err,
      },
    );
  });
  const newNeeds = await needsOfAdapter(ctx, next, harness);
  const oldNeeds = await needsOfAdapter(ctx, agent, agent.harness).catch(() => undefined);
  const oldKeys = new Set(needsOf(oldNeeds).map(needKey));
  // A built-in adapter's needs are Link's own, granted at its start: only its risks are asked.
  const builtIn = "builtIn" in await findAdapter(harness, { env: ctx.env, builtIns: BUILT_INS });
  const wider = builtIn ? [] : needsOf(newNeeds).filter((need) => !oldKeys.has(needKey(need)));
  const widerRisks = (newNeeds?.risks ?? []).filter((risk) =>
    !(oldNeeds?.risks ?? []).some((old) => old.name === risk.name)
  );
  const before = await loadAnswers(ctx.paths, harness);
  const beforeText = await readTextIfExists(ctx.paths.harnessToml(harness));
  if (wider.length || widerRisks.length) {
    // Asked at every widening switch (GRT-20): the answers kept are set aside for the question.
    const forAsking = {
      needs: Object.fromEntries(
        Object.entries(before.needs).filter(([key]) => !wider.some((need) => needKey(need) === key)),
      ),
      risks: Object.fromEntries(
        Object.entries(before.risks).filter(([name]) => !widerRisks.some((risk) => risk.name === name)),
      ),
    };
    if (beforeText !== undefined) await saveAnswers(ctx.paths, harness, forAsking, needsOf(newNeeds));
    const stays = (cause?: unknown) =>
      new LinkError(
        "REFUSED",
        `Agent "${agent.name}" stays on harness "${agent.harness}": the switch was refused`,
        {
          hint: `Run \`lnk agent use ${harness}\` again to answer anew`,
          cause,
        },
      );
    try {
      try {
        await askHarnessNeeds(ctx, next, asking, {
          harness,
          needs: newNeeds,
          doing: `switch agent "${agent.name}"`,
        });
      } catch (err) {
        // Asked and refused (a required risk denied): the agent stays; no terminal says --yes.
        if (isLinkError(err, "REFUSED") && asking.ask && !asking.yes) throw stays(err);
        throw err;
      }
      const kept = await loadAnswers(ctx.paths, harness);
      const no = wider.some((need) => kept.needs[needKey(need)] === "deny");
      if (no && !asking.yes) throw stays();
    } catch (err) {
      // A failed switch changes nothing on disk: the answers go back as they were.
      if (beforeText === undefined) await Deno.remove(ctx.paths.harnessToml(harness)).catch(() => {});
      else await atomicWrite(ctx.paths.harnessToml(harness), beforeText, { mode: 0o600 });
      throw err;
    }
  } else {
    asking.note?.(`Harness "${harness}" needs nothing beyond what "${agent.harness}" had`);
    await askHarnessNeeds(ctx, next, { ...asking, yes: true }, {
      harness,
      needs: newNeeds,
      doing: `switch agent "${agent.name}"`,
    });
  }
  const silent = await silentConnections(ctx, next, harness);
  await updateSettings(ctx.paths, agent.id, (s) => ({ ...s, harness, ...(acp ? { acp } : {}) }));
  return {
    agent: agent.name,
    from: agent.harness,
    to: harness,
    wider: [...wider.map(needKey), ...widerRisks.map((r) => `risk ${r.name}`)],
    silent,
  };
}

function acpOf(agent: AgentSettings, harness: string, command: string | undefined) {
  if (harness !== "acp") {
    if (command === undefined) return undefined;
    throw new LinkError(
      "USAGE",
      `Cannot switch agent "${agent.name}": --acp-command is for harness acp alone`,
      {
        hint: "Use `lnk agent use acp --acp-command <cmd>`, or leave out --acp-command",
      },
    );
  }
  if (command === undefined) {
    if (agent.acp) return agent.acp;
    throw new LinkError("USAGE", `Cannot switch agent "${agent.name}" to harness acp without its command`, {
      hint: `Name the ACP agent's command, such as --acp-command "${ACP_COMMAND_EXAMPLE}"`,
    });
  }
  return { command: splitCommand(command) };
}

/**
 * The agent's connections the harness will not answer (ADP-6): one with an endpoint speaks every
 * connection Link carries; without, it speaks what its `connections` says, Telegram if it says nothing.
 */
async function silentConnections(
  ctx: AgentContext,
  agent: AgentSettings,
  harness: string,
): Promise<string[]> {
  const mine = Object.keys(agent.bots);
  if (!mine.length) return [];
  const adapter = await findAdapter(harness, { env: ctx.env, builtIns: BUILT_INS });
  if ("builtIn" in adapter) return [];
  const input = {
    agent: { id: agent.id, name: agent.name, harness, ports: agent.ports, settings: {} },
    allowed: [],
    proxied: true,
  };
  const contract = await askContract(adapter, { env: ctx.env, input });
  if (answersField(contract, "endpoint") && await askAdapter(adapter, "endpoint", { env: ctx.env, input })) {
    return [];
  }
  const spoken = answersField(contract, "connections")
    ? (await askAdapter(adapter, "connections", { env: ctx.env, input }))?.connections ?? ["telegram"]
    : ["telegram"];
  return mine.filter((kind) => !spoken.includes(kind));
}
