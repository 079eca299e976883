import { z } from "zod";
import { type SignalAccount, signalRpc, SignalRpcError } from "./signal_account.ts";

/** The daemon's error codes that say an account is gone (signal-cli-jsonrpc(5)). */
const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;

const Accounts = z.array(z.looseObject({ number: z.string() }));

/**
 * Whether the daemon said Signal no longer knows the agent's account (registered elsewhere, or
 * deleted): a send refused with the servers' 401 ("[401] Authorization failed!"), or, from a daemon
 * of several accounts that dropped it, "Specified account does not exist". Trying again never helps.
 */
export function isDeregistered(err: unknown): boolean {
  if (!(err instanceof SignalRpcError)) return false;
  if (err.rpcCode === INVALID_PARAMS) return err.message.includes("Specified account does not exist");
  return err.rpcCode === INTERNAL_ERROR && /\[401\]|AuthorizationFailedException/.test(err.message);
}

/** Why the carrier stopped, said in `lnk agent status`, with what to do. */
export function deregisteredWhy(account: SignalAccount): string {
  const which = account.number ? `the account ${account.number}` : "the daemon's account";
  return `Signal no longer knows ${which}: it was registered elsewhere or deleted. ` +
    "Register or link it again with signal-cli, then run `lnk agent connect signal`";
}

/**
 * Whether a daemon that will not stream the account still serves it: false when it lists its
 * accounts (a daemon of several) and the agent's is not one of them; true when it cannot say.
 */
export async function stillServed(account: SignalAccount, signal: AbortSignal): Promise<boolean> {
  if (!account.number) return true;
  try {
    const listed = Accounts.safeParse(
      await signalRpc({ daemonUrl: account.daemonUrl }, "listAccounts", { signal }),
    );
    return !listed.success || listed.data.some((a) => a.number === account.number);
  } catch {
    // A daemon of one account has no listAccounts (METHOD_NOT_FOUND); one that does not answer now
    // says nothing of the account.
    return true;
  }
}
