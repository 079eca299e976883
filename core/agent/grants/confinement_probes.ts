import { makeNode } from "../../../sandbox/mod.ts";
import type { ProbeAnswer } from "./probe_protocol.ts";

const ERRNO: Readonly<Record<number, string>> = { 1: "EPERM", 13: "EACCES", 30: "EROFS", 38: "ENOSYS" };

/** Inside: the rlimits this process runs under, as the kernel says. */
export async function limitsProbe(): Promise<ProbeAnswer> {
  const limits = await Deno.readTextFile("/proc/self/limits");
  const soft = (name: string) => new RegExp(`^${name}\\s+(\\S+)`, "m").exec(limits)?.[1] ?? "none";
  return {
    done: true,
    detail: "read",
    values: {
      processes: soft("Max processes"),
      data: soft("Max data size"),
      fileSize: soft("Max file size"),
    },
  };
}

/**
 * Inside: tries to make a file run as its owner, then as its group (chmod u+s, g+s; Deno creates
 * no file with those bits, so open is left to the attack tests); says which got through, judged
 * outside.
 */
export async function setidProbe(path: string): Promise<ProbeAnswer> {
  await Deno.writeFile(path, new Uint8Array(), { createNew: true, mode: 0o755 });
  const through: string[] = [];
  for (const [name, mode] of [["u+s", 0o4755], ["g+s", 0o2755]] as const) {
    try {
      await Deno.chmod(path, mode);
      through.push(name);
    } catch { /* refused */ }
  }
  return { done: through.length > 0, detail: through.length ? "set" : "refused", list: through };
}

/** Inside: tries to make a character and a block device (judged outside). */
export function mknodProbe(char: string, block: string): ProbeAnswer {
  const results = [makeNode(char, "char"), makeNode(block, "block")];
  if (results.includes(undefined)) return { done: false, detail: "not tried" };
  const made = results.filter((r) => r === 0).length;
  const refusal = results.find((r) => r !== 0);
  return {
    done: made > 0,
    detail: refusal === undefined ? "made" : ERRNO[refusal!] ?? `errno ${refusal}`,
  };
}
