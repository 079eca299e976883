import { isLinkError, LinkError } from "../base/mod.ts";
import type { AgentLayout } from "../agent/mod.ts";
import { closeFd, statFd, walkNoFollow } from "../../sandbox/mod.ts";

/** An agent's Agent/skills/, held open: what is made in it is made in this very folder. */
export interface SkillsFolder extends Disposable {
  /** An O_PATH descriptor of the folder. */
  readonly fd: number;
  readonly path: string;
  /**
   * Throws SYMLINK_REFUSED unless the folder's path still leads to this folder without a link:
   * checked before a skill is put in place, so one moved away and replaced by a link is seen.
   */
  stillThere(): void;
}

/**
 * Opens the agent's Agent/skills/ from its agent folder down, each part in its parent's
 * descriptor (SKL-3): a link at or below the agent's folder (`Agent/skills` made a link to a
 * secret folder, say) is refused, never followed; a link above it, the person's own, is. Makes
 * the folder (0700) when `make` and it is missing; otherwise a missing folder is undefined.
 */
export function openSkillsFolder(layout: AgentLayout, options: { make: boolean }): SkillsFolder | undefined {
  const path = layout.collection("skills");
  const walk = () =>
    walkNoFollow(path, {
      writable: [layout.root],
      what: "the agent's skills folder",
      make: options.make ? 0o700 : undefined,
      refusal: (link) => linkRefused(link, path),
    });
  const found = rewrapped(path, walk);
  if (found.fd === undefined) return undefined;
  const fd = found.fd;
  if (found.type !== "dir") {
    closeFd(fd);
    throw notAFolder(path);
  }
  const held = statFd(fd);
  return {
    fd,
    path,
    stillThere() {
      const again = rewrapped(path, walk);
      if (again.fd !== undefined) {
        const now = statFd(again.fd);
        closeFd(again.fd);
        if (now.ino === held.ino && now.dev === held.dev) return;
      }
      throw linkRefused(path, path);
    },
    [Symbol.dispose]() {
      closeFd(fd);
    },
  };
}

/** The walk's own refusals say "the sandbox"; these say the skills folder. */
function rewrapped<T>(path: string, walk: () => T): T {
  try {
    return walk();
  } catch (err) {
    if (isLinkError(err, "SANDBOX_REFUSED")) throw notAFolder(path);
    throw err;
  }
}

function linkRefused(link: string, path: string): LinkError {
  return new LinkError(
    "SYMLINK_REFUSED",
    `Cannot use the agent's skills folder "${path}": "${link}" is a symbolic link or was replaced`,
    {
      hint:
        `Link never writes or reads through a link an agent could have made: put a real folder at "${path}", ` +
        "then run the command again",
    },
  );
}

function notAFolder(path: string): LinkError {
  return new LinkError(
    "CONFIG_INVALID",
    `Cannot use the agent's skills folder "${path}": it is not a folder`,
    {
      hint: `Put a folder at "${path}", then run the command again`,
    },
  );
}
