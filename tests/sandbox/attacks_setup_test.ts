/**
 * The attack suite, setup steps (SBX-13, SBX-14): from inside a real sandbox of an outside
 * adapter's `install` (a stand-in adapter program), a host its `internet-hosts` does not name, this
 * machine's loopback services and its LAN address are out of reach, the named host is reached
 * through the step's own proxy; from inside `health`, nothing but the harness's own port. Each as
 * root and as an ordinary user.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { NO_BWRAP, RELAY_LAUNCHER, TEST_IDENTITY } from "../support/sandbox.ts";
import { NO_OTHER_USER, OTHER_UID, userDenoDir } from "../support/sandbox_as_user.ts";
import { expected, type SetupAttack, setupAttack } from "./_setup_attack_support.ts";

const CHECKOUT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const CHILD = fileURLToPath(new URL("./_setup_attack_child.ts", import.meta.url));
const LAN = Deno.networkInterfaces().find((i) => i.family === "IPv4" && !i.address.startsWith("127."))
  ?.address;

async function asUser(step: "install" | "health"): Promise<SetupAttack> {
  const root = await Deno.makeTempDir({ prefix: "lnk-setup-user-" });
  try {
    await Deno.chown(root, OTHER_UID, OTHER_UID);
    const out = await new Deno.Command("setpriv", {
      args: [`--reuid=${OTHER_UID}`, `--regid=${OTHER_UID}`, "--clear-groups", "--", Deno.execPath()]
        .concat(["run", "-A", "--cached-only", "--config", join(CHECKOUT, "deno.json"), CHILD])
        .concat([root, step, LAN ?? ""]),
      clearEnv: true,
      env: { HOME: root, DENO_DIR: await userDenoDir(), NO_COLOR: "1", PATH: "/usr/local/bin:/usr/bin:/bin" },
      cwd: root,
      stdin: "null",
    }).output();
    const text = new TextDecoder().decode(out.stdout).trim();
    if (!out.success) {
      throw new Error(`the run as uid ${OTHER_UID} failed: ${new TextDecoder().decode(out.stderr)}`);
    }
    return JSON.parse(text.split("\n").at(-1)!) as SetupAttack;
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

async function asRoot(step: "install" | "health"): Promise<SetupAttack> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "lnk-setup-attack-" }));
  try {
    return await setupAttack(step, { root, identity: TEST_IDENTITY, launcher: RELAY_LAUNCHER, lan: LAN });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

for (
  const [who, run, ignore] of [["root", asRoot, NO_BWRAP], [
    "an ordinary user",
    asUser,
    NO_OTHER_USER,
  ]] as const
) {
  Deno.test({
    name:
      `attack as ${who}: the installer reaches only its internet-hosts through its own proxy, never another host, a loopback service or the LAN (SBX-13, SBX-14, ADP-9)`,
    ignore: ignore !== undefined,
    async fn() {
      const { result, dialled } = await run("install");
      assert.equal(result, expected("install", LAN !== undefined));
      // Only the named host was dialled: the other was refused before any connection.
      assert.deepEqual(dialled, ["93.184.216.34:80"]);
    },
  });
  Deno.test({
    name:
      `attack as ${who}: the health check reaches the harness's own port and nothing else: no proxy, no internet, no other port (SBX-13)`,
    ignore: ignore !== undefined,
    async fn() {
      const { result, dialled } = await run("health");
      assert.equal(result, expected("health", false));
      assert.deepEqual(dialled, []);
    },
  });
}
