import { z } from "zod";
import { LinkError } from "../../core/base/mod.ts";
import {
  daemonBase,
  METHOD_NOT_FOUND,
  type SignalAccount,
  signalRpc,
  SignalRpcError,
} from "./signal_account.ts";

/**
 * How the daemon is to be started: over HTTP on loopback, receiving only while Link listens
 * (`--receive-mode on-connection`), so a message that comes while Link is stopped or reconnecting
 * waits on Signal's server instead of being taken by the daemon and shown to no one.
 */
export const DAEMON_COMMAND =
  "signal-cli -a <number> daemon --http 127.0.0.1:<port> --receive-mode on-connection";

const Version = z.looseObject({ version: z.string() });
const Accounts = z.array(z.looseObject({ number: z.string() }));

/**
 * Asks the daemon its version and the accounts it serves (version, listAccounts): resolves with
 * the agent's number and signal-cli's version. A daemon that does not answer, answers something
 * other than signal-cli's JSON-RPC, or does not serve the number is SERVICE_FAILED with a hint; a
 * daemon serving several accounts with no number given is USAGE.
 */
export async function checkSignalDaemon(
  account: SignalAccount,
): Promise<{ number: string; version: string }> {
  const at = daemonBase(account);
  // Asked of the daemon, not of an account: one serving several refuses a number it does not serve
  // ("Specified account does not exist") before listAccounts can say which it does.
  const version = Version.safeParse(await call(account, "version", { noAccount: true }));
  if (!version.success) throw garbage(at);
  let listed: unknown;
  try {
    listed = await call(account, "listAccounts", { noAccount: true });
  } catch (err) {
    // A daemon started with -a serves that one account and lists none.
    if (
      !(err instanceof LinkError && err.cause instanceof SignalRpcError &&
        err.cause.rpcCode === METHOD_NOT_FOUND)
    ) {
      throw err;
    }
    if (!account.number) {
      throw new LinkError("USAGE", `Cannot tell which number the signal-cli daemon at "${at}" serves`, {
        hint: "Give the agent's own Signal number (the daemon's account) with --account",
      });
    }
    return { number: account.number, version: version.data.version };
  }
  const accounts = Accounts.safeParse(listed);
  if (!accounts.success) throw garbage(at);
  const numbers = accounts.data.map((a) => a.number);
  const number = account.number ?? (numbers.length === 1 ? numbers[0] : undefined);
  if (number === undefined && numbers.length > 1) {
    throw new LinkError(
      "USAGE",
      `Cannot tell which number to use: the signal-cli daemon at "${at}" serves several`,
      {
        hint: `Give the agent's own Signal number with --account: one of ${numbers.join(", ")}`,
      },
    );
  }
  if (number === undefined || !numbers.includes(number)) {
    const what = number === undefined ? "a Signal number" : `the Signal number "${number}"`;
    throw new LinkError(
      "SERVICE_FAILED",
      `Cannot use ${what}: the signal-cli daemon at "${at}" does not serve it`,
      {
        hint:
          `Register or link the number with signal-cli (\`signal-cli -a <number> register\`, then \`verify\`), then start the daemon as \`${DAEMON_COMMAND}\``,
      },
    );
  }
  return { number, version: version.data.version };
}

/** One call, its failures said as Link's. */
async function call(
  account: SignalAccount,
  method: string,
  options: { noAccount?: boolean } = {},
): Promise<unknown> {
  const at = daemonBase(account);
  try {
    return await signalRpc(options.noAccount ? { daemonUrl: account.daemonUrl } : account, method);
  } catch (err) {
    if (err instanceof SignalRpcError && err.rpcCode !== undefined) {
      throw new LinkError("SERVICE_FAILED", `Cannot check the signal-cli daemon at "${at}": ${err.message}`, {
        cause: err,
      });
    }
    if (err instanceof SignalRpcError) throw garbage(at, err);
    throw new LinkError("SERVICE_FAILED", `Cannot reach a signal-cli daemon at "${at}": nothing answers`, {
      hint: `Start the daemon as \`${DAEMON_COMMAND}\` and give its address`,
      cause: err,
    });
  }
}

function garbage(at: string, cause?: Error): LinkError {
  return new LinkError(
    "SERVICE_FAILED",
    `Cannot use the signal-cli daemon at "${at}": it answers, but not as signal-cli's JSON-RPC`,
    {
      hint:
        `Check the address: the daemon started as \`${DAEMON_COMMAND}\` answers at http://127.0.0.1:<port>`,
      cause,
    },
  );
}
