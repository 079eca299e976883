import assert from "node:assert/strict";
import { join } from "node:path";
import {
  BWRAP_PROFILE_PATH,
  bwrapProfile,
  checkUserNamespaces,
  offerBwrapProfile,
  type ProfileConsent,
} from "../../sandbox/mod.ts";

/** A fake /proc holding only the given sys entries. */
async function fakeProc(values: Record<string, string>): Promise<{ path: string } & AsyncDisposable> {
  const root = await Deno.makeTempDir({ prefix: "lnk-proc-" });
  for (const [path, value] of Object.entries(values)) {
    await Deno.mkdir(join(root, "sys", path, ".."), { recursive: true });
    await Deno.writeTextFile(join(root, "sys", path), `${value}\n`);
  }
  return { path: root, [Symbol.asyncDispose]: () => Deno.remove(root, { recursive: true }) };
}

const UBUNTU = { "kernel/apparmor_restrict_unprivileged_userns": "1", "user/max_user_namespaces": "63000" };

Deno.test("checkUserNamespaces() finds Ubuntu's AppArmor rule and offers a profile for bwrap alone (SBX-3)", async () => {
  await using proc = await fakeProc(UBUNTU);
  const found = await checkUserNamespaces({ procRoot: proc.path, uid: 1000, bwrap: "/usr/bin/bwrap" });
  assert.deepEqual(found, {
    usable: false,
    reason: "AppArmor keeps unprivileged programs from making user namespaces " +
      "(kernel.apparmor_restrict_unprivileged_userns = 1)",
    profile: bwrapProfile("/usr/bin/bwrap"),
    steps: [
      `sudo tee ${BWRAP_PROFILE_PATH} < <the profile above>`,
      `sudo apparmor_parser -r ${BWRAP_PROFILE_PATH}`,
    ],
  });
  assert.match(
    found.usable ? "" : found.profile ?? "",
    /profile lnk-bwrap \/usr\/bin\/bwrap flags=\(unconfined\) \{\n {2}userns,/,
  );
});

Deno.test("checkUserNamespaces() lets root through the AppArmor rule, and passes a machine without it", async () => {
  await using proc = await fakeProc(UBUNTU);
  assert.deepEqual(await checkUserNamespaces({ procRoot: proc.path, uid: 0 }), { usable: true });
  await using plain = await fakeProc({ "user/max_user_namespaces": "63000" });
  assert.deepEqual(await checkUserNamespaces({ procRoot: plain.path, uid: 1000 }), { usable: true });
});

Deno.test("checkUserNamespaces() reports user namespaces turned off, with no profile to offer", async () => {
  await using proc = await fakeProc({ "user/max_user_namespaces": "0" });
  const found = await checkUserNamespaces({ procRoot: proc.path, uid: 0 });
  assert.deepEqual(found, {
    usable: false,
    reason: "user namespaces are turned off on this machine (user.max_user_namespaces = 0)",
  });
});

function consent(answer: string | undefined, runs = true) {
  const ran: [readonly string[], string | undefined][] = [];
  const notes: string[] = [];
  const c: ProfileConsent = {
    ask: () => Promise.resolve(answer),
    note: (t) => void notes.push(t),
    run: (argv, input) => {
      ran.push([argv, input]);
      return Promise.resolve(runs);
    },
  };
  return { c, ran, notes };
}

Deno.test("offerBwrapProfile() installs the profile with sudo when the person agrees (SBX-3)", async () => {
  await using proc = await fakeProc(UBUNTU);
  const found = await checkUserNamespaces({ procRoot: proc.path, uid: 1000, bwrap: "/usr/bin/bwrap" });
  const { c, ran } = consent("y");
  await offerBwrapProfile(found, c);
  assert.deepEqual(ran, [
    [["sudo", "tee", BWRAP_PROFILE_PATH], bwrapProfile("/usr/bin/bwrap")],
    [["sudo", "apparmor_parser", "-r", BWRAP_PROFILE_PATH], undefined],
  ]);
});

Deno.test("offerBwrapProfile() fails the start when refused or unanswered: never unsandboxed (SBX-3)", async () => {
  await using proc = await fakeProc(UBUNTU);
  const found = await checkUserNamespaces({ procRoot: proc.path, uid: 1000 });
  for (const answer of ["n", "", undefined]) {
    const { c, ran } = consent(answer);
    await assert.rejects(offerBwrapProfile(found, c), { code: "SANDBOX_UNAVAILABLE" });
    assert.deepEqual(ran, []);
  }
  await assert.rejects(offerBwrapProfile(found, consent("yes", false).c), { code: "SANDBOX_UNAVAILABLE" });
});
