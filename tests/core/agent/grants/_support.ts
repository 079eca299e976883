/**
 * What the grants tests share: agents made through the CLI in a temporary home, their context,
 * a proxy that sends nothing beyond this machine, and the sandbox tests' bubblewrap check.
 */
import {
  type AgentContext,
  agentContext,
  type AgentSettings,
  loadSettings,
} from "../../../../core/agent/mod.ts";
import { runJson, type TempHome } from "../../../support/mod.ts";

export { NO_BWRAP, RELAY_LAUNCHER, sandboxTest } from "../../../support/sandbox.ts";

/** Creates an agent with `lnk agent create` and reads its settings back. */
export async function newAgent(home: TempHome, name = "main", args: string[] = []): Promise<AgentSettings> {
  const { id } = await runJson<{ id: string }>(["agent", "create", name, ...args], home);
  return await loadSettings(home.paths, id);
}

/** The context agent functions take, for a temporary home. */
export function contextOf(home: TempHome): AgentContext {
  return agentContext(home.env, { home: home.path });
}

/** A proxy upstream side that never leaves this machine: every name fails to resolve, nothing is dialled. */
export const NO_NETWORK = {
  resolve: (name: string) => Promise.reject(new Error(`no network here to resolve "${name}"`)),
  dial: () => Promise.reject(new Error("no network here")),
};

/** Whether openssl is here to make a certificate authority for a TLS test. */
export const HAS_OPENSSL: boolean = await new Deno.Command("openssl", {
  args: ["version"],
  stdout: "null",
  stderr: "null",
}).output().then((o) => o.success, () => false);

/** A certificate authority made for this run, and a certificate it signed for `name`. */
export async function testCertificates(name: string): Promise<{ ca: string; cert: string; key: string }> {
  const dir = await Deno.makeTempDir({ prefix: "lnk-grants-tls-" });
  const openssl = async (...args: string[]) => {
    const out = await new Deno.Command("openssl", { args, cwd: dir, stdout: "null", stderr: "piped" })
      .output();
    if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  };
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  try {
    await openssl(
      "req",
      "-x509",
      ...ec,
      "-days",
      "1",
      "-subj",
      "/CN=Link test CA",
      "-keyout",
      "ca.key",
      "-out",
      "ca.pem",
    );
    await openssl("req", ...ec, "-subj", `/CN=${name}`, "-keyout", "leaf.key", "-out", "leaf.csr");
    await Deno.writeTextFile(`${dir}/leaf.ext`, `subjectAltName=DNS:${name}\nbasicConstraints=CA:FALSE\n`);
    await openssl(
      ...["x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial"],
      ...["-days", "1", "-extfile", "leaf.ext", "-out", "leaf.pem"],
    );
    const [ca, cert, key] = await Promise.all(
      ["ca.pem", "leaf.pem", "leaf.key"].map((f) => Deno.readTextFile(`${dir}/${f}`)),
    );
    return { ca: ca!, cert: cert!, key: key! };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
