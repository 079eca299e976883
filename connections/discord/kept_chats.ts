import { z } from "zod";
import { atomicWrite, joinPath, logger, readTextIfExists } from "../../core/base/mod.ts";

const log = logger("discord");

const KeptChats = z.array(z.string());

/** The file of the shared chats an allowed person talked to the agent in (SCH-3). */
export function groupsPath(stateDir: string): string {
  return joinPath(stateDir, "groups.json");
}

/**
 * The shared chats (`<guild>:<channel>`) an allowed person talked to the agent in, kept in the
 * connection's folder: where an answer nobody waits for may go besides the owner's DM (SCH-3).
 */
export async function readKeptChats(stateDir: string): Promise<string[]> {
  const text = await readTextIfExists(groupsPath(stateDir));
  if (text === undefined) return [];
  try {
    return KeptChats.parse(JSON.parse(text));
  } catch {
    log.warn("Ignoring an unreadable list of Discord chats");
    return [];
  }
}

/** Keeps a chat an allowed person talked in, once. */
export async function keepChat(stateDir: string, chat: string): Promise<void> {
  const chats = await readKeptChats(stateDir);
  if (chats.includes(chat)) return;
  await atomicWrite(groupsPath(stateDir), JSON.stringify([...chats, chat]));
}
