import { join } from "node:path";
import { LinkError } from "../core/base/mod.ts";

/** Where Link installs its AppArmor profile for bubblewrap alone (SBX-3). */
export const BWRAP_PROFILE_PATH = "/etc/apparmor.d/lnk-bwrap";

/** What checkUserNamespaces found: usable, or blocked with the fix Link offers. */
export type UserNamespaces =
  | { readonly usable: true }
  | {
    readonly usable: false;
    /** Why a sandbox cannot start. */
    readonly reason: string;
    /** The AppArmor profile letting bubblewrap alone make user namespaces, when AppArmor blocks them. */
    readonly profile?: string;
    /** The commands installing it, for a person to run or to consent to. */
    readonly steps?: readonly string[];
  };

/**
 * Whether this machine lets bubblewrap make user namespaces. Ubuntu's AppArmor rule
 * (kernel.apparmor_restrict_unprivileged_userns=1) blocks them for unprivileged programs; the fix
 * is a profile for bubblewrap alone, installed with the person's consent, never the sysctl, which
 * would open user namespaces to every program. Root is not bound by the rule. `procRoot` lets
 * tests point at a fake /proc.
 */
export async function checkUserNamespaces(
  options: { procRoot?: string; bwrap?: string; uid?: number | null } = {},
): Promise<UserNamespaces> {
  const proc = options.procRoot ?? "/proc";
  const uid = options.uid === undefined ? Deno.uid() : options.uid;
  const read = (path: string) => readNumber(join(proc, "sys", path));
  if ((await read("user/max_user_namespaces")) === 0) {
    return {
      usable: false,
      reason: "user namespaces are turned off on this machine (user.max_user_namespaces = 0)",
    };
  }
  if (uid !== 0 && (await read("kernel/unprivileged_userns_clone")) === 0) {
    return {
      usable: false,
      reason: "unprivileged user namespaces are turned off (kernel.unprivileged_userns_clone = 0)",
    };
  }
  if (uid !== 0 && (await read("kernel/apparmor_restrict_unprivileged_userns")) === 1) {
    const bwrap = options.bwrap ?? "/usr/bin/bwrap";
    return {
      usable: false,
      reason: "AppArmor keeps unprivileged programs from making user namespaces " +
        "(kernel.apparmor_restrict_unprivileged_userns = 1)",
      profile: bwrapProfile(bwrap),
      steps: [
        `sudo tee ${BWRAP_PROFILE_PATH} < <the profile above>`,
        `sudo apparmor_parser -r ${BWRAP_PROFILE_PATH}`,
      ],
    };
  }
  return { usable: true };
}

/** The AppArmor profile for bubblewrap alone: unconfined as before, plus user namespaces. */
export function bwrapProfile(bwrap: string): string {
  return `# Written by Link (lnk) with your consent: lets bubblewrap alone make user namespaces,
# so agents run sandboxed. Remove this file and run \`sudo apparmor_parser -R ${BWRAP_PROFILE_PATH}\` to undo.
abi <abi/4.0>,
include <tunables/global>

profile lnk-bwrap ${bwrap} flags=(unconfined) {
  userns,

  include if exists <local/lnk-bwrap>
}
`;
}

/** Fails the start when user namespaces are blocked, with the profile and its steps: never unsandboxed. */
export function requireUserNamespaces(found: UserNamespaces): void {
  if (found.usable) return;
  const fix = found.profile
    ? `Install Link's profile for bubblewrap alone (Link offers it at the first start):\n${found.profile}\n${
      found.steps?.join("\n")
    }`
    : "Turn user namespaces on for this machine, then start again";
  throw new LinkError("SANDBOX_UNAVAILABLE", `Cannot start a sandbox: ${found.reason}`, { hint: fix });
}

async function readNumber(path: string): Promise<number | undefined> {
  try {
    const n = Number((await Deno.readTextFile(path)).trim());
    return Number.isFinite(n) ? n : undefined;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.PermissionDenied) return undefined;
    throw err;
  }
}

/** How offerBwrapProfile asks and runs: a terminal and `sudo` in real use. */
export interface ProfileConsent {
  /** Asks the person; undefined when nobody is at a terminal. */
  ask(question: string): Promise<string | undefined>;
  note(text: string): void;
  /** Runs a command with `input` on stdin; true when it succeeded. */
  run(argv: readonly string[], input?: string): Promise<boolean>;
}

/**
 * Makes sure bubblewrap can make user namespaces, offering to install Link's profile for it
 * alone when AppArmor blocks them (SBX-3). Without consent, or without a terminal, the start
 * fails with SANDBOX_UNAVAILABLE: never a silent fallback to no sandbox.
 */
export async function offerBwrapProfile(found: UserNamespaces, consent: ProfileConsent): Promise<void> {
  if (found.usable) return;
  if (!found.profile) requireUserNamespaces(found);
  consent.note(
    `${found.reason}.\nLink can install this AppArmor profile for bubblewrap alone:\n\n${found.profile}`,
  );
  const answer = await consent.ask(`Install it at ${BWRAP_PROFILE_PATH} with sudo? [y/N]`);
  if (!/^y(es)?$/i.test(answer?.trim() ?? "")) requireUserNamespaces(found);
  const ok = await consent.run(["sudo", "tee", BWRAP_PROFILE_PATH], found.profile) &&
    await consent.run(["sudo", "apparmor_parser", "-r", BWRAP_PROFILE_PATH]);
  if (!ok) {
    throw new LinkError(
      "SANDBOX_UNAVAILABLE",
      "Cannot start a sandbox: the AppArmor profile was not installed",
      {
        hint: `Install it by hand:\n${found.steps?.join("\n")}`,
      },
    );
  }
}

/** Runs a command for offerBwrapProfile with the person's terminal, `input` on stdin. */
export async function runWithInput(argv: readonly string[], input?: string): Promise<boolean> {
  const [program, ...args] = argv;
  const child = new Deno.Command(program!, {
    args,
    stdin: input === undefined ? "inherit" : "piped",
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  if (input !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(input));
    await writer.close();
  }
  return (await child.status).success;
}
