/**
 * Rejects with why as soon as one of these servers (a door, a bridge) stops accepting on its own,
 * and never resolves: a role races it with its stop, so it ends with the reason rather than look
 * alive with no door (status then says died).
 */
export function stoppedAccepting(...servers: { finished: Promise<void> }[]): Promise<never> {
  const failed = new Promise<never>((_, reject) => {
    for (const server of servers) server.finished.catch(reject);
  });
  failed.catch(() => {});
  return failed;
}
