import { join } from "node:path";
import { TextLineReader } from "../../../core/base/mod.ts";

/** Where sshd is, or why a test of a real one cannot run here. */
export const SSHD = ["/usr/sbin/sshd", "/usr/bin/sshd"].find((p) => {
  try {
    return Deno.statSync(p).isFile;
  } catch {
    return false;
  }
});
export const NO_SSHD = SSHD ? undefined : "sshd is not installed (apt-get install openssh-server)";

/** A real sshd on 127.0.0.1, with its own host key and one authorized key, in a temp folder. */
export interface LoopbackSshd extends AsyncDisposable {
  readonly port: number;
  readonly user: string;
  /** The `-o` options that log in with the authorized key and trust this host. */
  readonly sshOptions: string[];
}

async function run(command: string, args: string[]): Promise<string> {
  const out = await new Deno.Command(command, { args, stdout: "piped", stderr: "piped" }).output();
  if (!out.success) throw new Error(`${command} failed: ${new TextDecoder().decode(out.stderr)}`);
  return new TextDecoder().decode(out.stdout).trim();
}

/** A port nothing holds now: bound on port 0 and let go (sshd takes a port, not 0). */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** Starts sshd -D on a free loopback port and waits for its "Server listening" line. */
export async function loopbackSshd(): Promise<LoopbackSshd> {
  const dir = await Deno.makeTempDir({ prefix: "lnk-sshd-" });
  await Deno.chmod(dir, 0o755);
  await run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", join(dir, "host_key")]);
  await run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", join(dir, "client_key")]);
  await Deno.copyFile(join(dir, "client_key.pub"), join(dir, "authorized_keys"));
  // Its privilege separation folder, made by the service on a machine that runs one.
  if (Deno.uid() === 0) await Deno.mkdir("/run/sshd", { recursive: true, mode: 0o755 });
  const port = freePort();
  await Deno.writeTextFile(
    join(dir, "sshd_config"),
    [
      `Port ${port}`,
      "ListenAddress 127.0.0.1",
      `HostKey ${join(dir, "host_key")}`,
      `AuthorizedKeysFile ${join(dir, "authorized_keys")}`,
      `PidFile ${join(dir, "sshd.pid")}`,
      "StrictModes no",
      "UsePAM no",
      "PasswordAuthentication no",
      "KbdInteractiveAuthentication no",
      "PermitRootLogin prohibit-password",
      "AllowTcpForwarding yes",
      "GatewayPorts no",
      "LogLevel VERBOSE",
      "",
    ].join("\n"),
  );
  const child = new Deno.Command(SSHD!, {
    args: ["-D", "-e", "-f", join(dir, "sshd_config")],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const lines = new TextLineReader(child.stderr);
  const said: string[] = [];
  for (let line = await lines.next(); line !== undefined; line = await lines.next()) {
    said.push(line);
    if (line.includes(`Server listening on 127.0.0.1 port ${port}`)) break;
  }
  if (!said.at(-1)?.includes("Server listening")) {
    await child.status;
    throw new Error(`sshd did not start: ${said.join("\n")}`);
  }
  const drained = (async () => {
    while (await lines.next() !== undefined) { /* its log, read so it never blocks */ }
  })();
  return {
    port,
    user: await run("id", ["-un"]),
    sshOptions: [
      `Port=${port}`,
      `IdentityFile=${join(dir, "client_key")}`,
      "IdentitiesOnly=yes",
      "StrictHostKeyChecking=no",
      "UserKnownHostsFile=/dev/null",
      "LogLevel=VERBOSE",
    ],
    async [Symbol.asyncDispose]() {
      child.kill("SIGTERM");
      await child.status;
      await drained;
      await Deno.remove(dir, { recursive: true });
    },
  };
}
