/** One process as /proc shows it. */
export interface ProcessInfo {
  pid: number;
  /** Resident memory, in KiB. */
  rssKb: number;
  /** The command line, arguments joined by spaces. */
  command: string;
}

async function readProcess(pid: number): Promise<ProcessInfo | undefined> {
  try {
    const status = await Deno.readTextFile(`/proc/${pid}/status`);
    if (/^State:\s+[ZX]/m.test(status)) return undefined;
    const rssKb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
    const command = (await Deno.readTextFile(`/proc/${pid}/cmdline`)).split("\0").filter(Boolean).join(" ");
    return { pid, rssKb, command };
  } catch {
    return undefined; // gone meanwhile
  }
}

async function childrenOf(pid: number): Promise<number[]> {
  try {
    const text = await Deno.readTextFile(`/proc/${pid}/task/${pid}/children`);
    return text.split(" ").filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** A process and all its descendants (Linux /proc), the root first. */
export async function processTree(root: number): Promise<ProcessInfo[]> {
  const found: ProcessInfo[] = [];
  const queue = [root];
  while (queue.length) {
    const pid = queue.shift()!;
    const info = await readProcess(pid);
    if (!info) continue;
    found.push(info);
    queue.push(...await childrenOf(pid));
  }
  return found;
}

/** Every live process on the machine whose command line names the agent (its ID, or its sockets' folder). */
export async function processesNaming(agentId: string): Promise<ProcessInfo[]> {
  const found: ProcessInfo[] = [];
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name) || Number(entry.name) === Deno.pid) continue;
    const info = await readProcess(Number(entry.name));
    if (info?.command.includes(agentId)) found.push(info);
  }
  return found.sort((a, b) => a.pid - b.pid);
}
