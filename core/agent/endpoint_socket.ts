import { type Clock, LinkError, SYSTEM_CLOCK } from "../base/mod.ts";

/** How long a woken agent's socket may take to answer when its service manager says nothing. */
const SOCKET_WAIT_MS = 30_000;
/** How often the socket is tried meanwhile. */
const SOCKET_RETRY_MS = 20;

/** Whether something accepts connections at the unix socket now (a dead harness leaves it refusing). */
export async function socketAnswers(path: string): Promise<boolean> {
  try {
    const conn = await Deno.connect({ transport: "unix", path });
    conn.close();
    return true;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.ConnectionRefused) return false;
    throw err;
  }
}

/**
 * Waits until the socket answers: for service managers (systemd, launchd) whose start returns
 * before the role's ready line. Throws SERVICE_FAILED after 30 s.
 */
export async function waitForSocket(
  path: string,
  options: { clock?: Clock; signal?: AbortSignal } = {},
): Promise<void> {
  const clock = options.clock ?? SYSTEM_CLOCK;
  const until = clock.now() + SOCKET_WAIT_MS;
  while (!(await socketAnswers(path))) {
    if (clock.now() >= until) {
      throw new LinkError(
        "SERVICE_FAILED",
        `Cannot reach the agent: nothing answered at "${path}" for 30 s`,
        {
          hint: "Run `lnk agent logs` to see why its harness did not start",
        },
      );
    }
    await clock.sleep(SOCKET_RETRY_MS, options.signal);
  }
}
