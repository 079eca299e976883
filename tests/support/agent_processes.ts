/** One process as /proc shows it. */
export interface ProcessInfo {
  pid: number;
  /** Resident memory, in KiB. */
  rssKb: number;
  /** The command line, arguments joined by spaces. */
  command: string;
  /** When it started, in ms since the epoch (to the kernel's clock tick, 10 ms). */
  startedAt: number;
}

const TICKS_PER_SECOND = 100; // USER_HZ, 100 on Linux

/** When this machine booted, in ms since the epoch, to about 10 ms. */
async function bootedAt(): Promise<number> {
  const uptime = Number((await Deno.readTextFile("/proc/uptime")).split(" ")[0]);
  return Date.now() - uptime * 1000;
}

async function readProcess(pid: number, booted: number): Promise<ProcessInfo | undefined> {
  try {
    const status = await Deno.readTextFile(`/proc/${pid}/status`);
    if (/^State:\s+[ZX]/m.test(status)) return undefined;
    const rssKb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
    const command = (await Deno.readTextFile(`/proc/${pid}/cmdline`)).split("\0").filter(Boolean).join(" ");
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
    const ticks = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
    return { pid, rssKb, command, startedAt: booted + (ticks / TICKS_PER_SECOND) * 1000 };
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
  const booted = await bootedAt();
  const queue = [root];
  while (queue.length) {
    const pid = queue.shift()!;
    const info = await readProcess(pid, booted);
    if (!info) continue;
    found.push(info);
    queue.push(...await childrenOf(pid));
  }
  return found;
}

/** Every live process on the machine whose command line names the agent (its ID, or its sockets' folder). */
export async function processesNaming(agentId: string): Promise<ProcessInfo[]> {
  const found: ProcessInfo[] = [];
  const booted = await bootedAt();
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name) || Number(entry.name) === Deno.pid) continue;
    const info = await readProcess(Number(entry.name), booted);
    if (info?.command.includes(agentId)) found.push(info);
  }
  return found.sort((a, b) => a.pid - b.pid);
}
