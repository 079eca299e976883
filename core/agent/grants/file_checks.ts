import { join } from "node:path";
import type { LinkPaths } from "../../base/mod.ts";
import { expandHome, VISIBLE_COLLECTIONS } from "../../../sandbox/mod.ts";
import { layoutOf } from "../layout.ts";
import type { AgentSettings } from "../settings.ts";
import type { CheckSetup, ReadTarget, WriteTarget } from "./check_setup.ts";
import type { HarnessPolicy } from "./harness_policy.ts";
import { type PlannedCheck, reachCheck, reachOf } from "./planned_check.ts";

const COLLECTIONS: readonly string[] = VISIBLE_COLLECTIONS;

/**
 * The file checks of `lnk agent harness check` (SBX-2, SBX-21, GRT-8, LAY-5..8): its own home
 * writable; your home, ~/.lnk, ~/.config, Config/ and other agents' folders hidden and unwritable;
 * Home and the collections as [files] says (chats written by Link Harness alone); each [paths]
 * grant holding.
 */
export async function planFileChecks(
  setup: CheckSetup,
  paths: LinkPaths,
  policy: HarnessPolicy,
  others: readonly AgentSettings[],
): Promise<PlannedCheck[]> {
  const { agent, layout, spec } = policy;
  const home = paths.home;
  const homeReach = spec.paths.write.includes("~")
    ? "writable"
    : spec.paths.read.includes("~")
    ? "read-only"
    : "hidden";
  const checks: PlannedCheck[] = [
    reachCheck(setup, "its own home", "writable", {
      reads: [await setup.canary(policy.harnessHome)],
      writes: [await setup.writable(policy.harnessHome)],
    }),
    reachCheck(setup, "your home (~)", homeReach, {
      reads: [await setup.canary(home)],
      writes: [await setup.writable(home)],
    }),
    reachCheck(setup, "~/.lnk (settings, keys, harness grants)", "hidden", {
      reads: [
        await setup.canary(paths.lnk),
        await setup.canary(paths.agentState(agent.id)),
        await setup.existing(paths.settingsToml(agent.id)),
        await setup.existing(paths.keyFile(agent.id)),
        await setup.existing(paths.machineToml),
        ...(policy.layer ? [await setup.existing(policy.layer.path)] : []),
      ],
      writes: [
        await setup.writable(paths.lnk),
        await setup.writable(paths.agentState(agent.id)),
        await setup.writable(paths.keys),
        await setup.writable(paths.harnesses),
      ],
    }),
    reachCheck(setup, "~/.config (service units)", "hidden", {
      reads: [await setup.canary(paths.config), await setup.canary(paths.systemdUser)],
      writes: [await setup.writable(paths.config), await setup.writable(paths.systemdUser)],
    }),
    reachCheck(setup, "Config/ (its grants and spec)", "hidden", {
      reads: [await setup.existing(layout.sandboxToml), await setup.existing(layout.specToml)],
      writes: [await setup.writable(layout.config)],
    }),
    await otherAgentsCheck(setup, paths, others),
    ...await homeChecks(setup, policy),
    ...await pathChecks(setup, home, policy),
  ];
  return checks;
}

async function otherAgentsCheck(
  setup: CheckSetup,
  paths: LinkPaths,
  others: readonly AgentSettings[],
): Promise<PlannedCheck> {
  const reads = [await setup.canary(paths.agentFolders)];
  const writes = [await setup.writable(paths.agentFolders)];
  for (const other of others) {
    const layout = layoutOf(paths, other);
    reads.push(await setup.canary(layout.home), await setup.existing(layout.sandboxToml));
    reads.push(await setup.existing(paths.settingsToml(other.id)));
    writes.push(await setup.writable(layout.home));
  }
  return reachCheck(setup, `other agents' folders (${others.length} other)`, "hidden", { reads, writes });
}

/**
 * Home and the collections as the harness sees them: per [files] (layout), Home at its own path
 * and each collection at its own path in Agent/ (LAY-3), or all of Home (an outside harness).
 */
async function homeChecks(setup: CheckSetup, policy: HarnessPolicy): Promise<PlannedCheck[]> {
  const { layout, spec } = policy;
  const agentDir = layout.agent;
  if (policy.folders === "home") {
    const brain = await brainReach(setup, agentDir, ["memory", "schedule", "instructions", "chats"]);
    return [
      reachCheck(setup, "Home (all of it: a harness from outside Link)", "writable", {
        reads: [await setup.canary(layout.home)],
        writes: [await setup.writable(layout.home)],
      }),
      reachCheck(setup, "Agent/ (out of an outside harness's reach)", "hidden", brain),
    ];
  }
  const unseen = policy.harnessWritesNotes ? ["schedule"] : ["memory", "schedule"];
  const checks = [
    reachCheck(
      setup,
      `Agent/ ${unseen.join(" and ")} (reached through Link)`,
      "hidden",
      await brainReach(setup, agentDir, unseen),
    ),
  ];
  if (policy.harnessWritesNotes) {
    const memory = join(agentDir, "memory");
    checks.push(reachCheck(setup, "memory/ (its notes, written by Link Harness)", "writable", {
      reads: [await setup.canary(memory)],
      writes: [await setup.writable(memory)],
    }));
  }
  const files = { ...spec.files };
  if (policy.harnessWritesChats) files.chats ??= "read";
  for (const [name, access] of Object.entries(files)) {
    if (name === ".") {
      checks.push(reachCheck(setup, 'Home ([files] ".")', reachOf(access), {
        reads: [await setup.canary(layout.home)],
        writes: [await setup.writable(layout.home)],
      }));
      continue;
    }
    // A collection is bound at its own path in Agent/; a folder [files] names is one of Home's.
    const collection = COLLECTIONS.includes(name);
    const folder = join(collection ? agentDir : layout.home, name);
    if (!collection && access !== "none") await Deno.mkdir(folder, { recursive: true });
    const byHarness = name === "chats" && policy.harnessWritesChats;
    const label = byHarness ? "chats/ (written by Link Harness; its tools only read)" : `${name}/ ([files])`;
    checks.push(reachCheck(setup, label, byHarness ? "writable" : reachOf(access), {
      reads: [await setup.canary(folder)],
      writes: [await setup.writable(folder)],
    }));
  }
  return checks;
}

/** Canaries in the collections of Agent/ that must stay hidden, and a write to Agent/ itself. */
async function brainReach(
  setup: CheckSetup,
  agentDir: string,
  names: readonly string[],
): Promise<{ reads: (ReadTarget | undefined)[]; writes: (WriteTarget | undefined)[] }> {
  const reads: (ReadTarget | undefined)[] = [];
  for (const name of names) reads.push(await setup.canary(join(agentDir, name)));
  return { reads, writes: [await setup.writable(agentDir)] };
}

/** Each [paths] grant holding: read-only or writable as granted. */
async function pathChecks(setup: CheckSetup, home: string, policy: HarnessPolicy): Promise<PlannedCheck[]> {
  const checks: PlannedCheck[] = [];
  const grants = [
    ...policy.spec.paths.read.filter((p) => !policy.spec.paths.write.includes(p)).map((p) =>
      [p, "read"] as const
    ),
    ...policy.spec.paths.write.map((p) => [p, "write"] as const),
  ];
  for (const [granted, access] of grants) {
    if (granted === "~") continue;
    const path = expandHome(granted, home);
    const stat = await Deno.stat(path).catch(() => undefined);
    const reads = stat?.isFile ? [await setup.existing(path)] : [await setup.canary(path)];
    const writes = stat?.isDirectory ? [await setup.writable(path)] : [];
    // A granted file is read, never written to: writing it would change the person's file.
    const untried = stat?.isFile && access === "write";
    const label = `${granted} ([paths] ${access}${untried ? "; writing a file is not tried" : ""})`;
    checks.push(reachCheck(setup, label, untried ? "read-only" : reachOf(access), { reads, writes }));
  }
  return checks;
}

/** chats/ as Link's tools and run's commands see it: never writable, whoever writes it (LAY-7). */
export async function toolsChatsCheck(setup: CheckSetup, policy: HarnessPolicy): Promise<PlannedCheck> {
  const chats = join(policy.layout.agent, "chats");
  return reachCheck(
    setup,
    "chats/ (as its tools and run's commands see it)",
    reachOf(policy.spec.files.chats ?? "none"),
    {
      reads: [await setup.canary(chats)],
      writes: [await setup.writable(chats)],
    },
  );
}
