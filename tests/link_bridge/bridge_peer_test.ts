import assert from "node:assert/strict";
import { procPeerUid, tcpPeerUid } from "../../link_bridge/bridge_peer.ts";
import { OtherUserClient, otherUsersUnavailable } from "../support/other_user.ts";

const OTHER_USERS = await otherUsersUnavailable();

Deno.test("tcpPeerUid() finds this process's own uid for its own connection", async () => {
  using listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  using client = await Deno.connect({ hostname: "127.0.0.1", port: listener.addr.port });
  using conn = await listener.accept();
  assert.equal(await tcpPeerUid(conn.localAddr, conn.remoteAddr), Deno.uid());
  assert.equal(client.remoteAddr.port, listener.addr.port);
});

Deno.test({
  name: "tcpPeerUid() and procPeerUid() find another user's uid, from the kernel and from /proc/net/tcp" +
    (OTHER_USERS ? ` [ignored: ${OTHER_USERS}]` : ""),
  ignore: OTHER_USERS !== undefined,
  async fn() {
    using listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    await using _other = await OtherUserClient.start(65534, listener.addr.port);
    using conn = await listener.accept();
    assert.equal(await tcpPeerUid(conn.localAddr, conn.remoteAddr), 65534);
    assert.equal(await procPeerUid(conn.localAddr, conn.remoteAddr), 65534);
  },
});

Deno.test("tcpPeerUid() and procPeerUid() answer a burst of lookups made at once, each for its own connection", async () => {
  using listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const clients: Deno.TcpConn[] = [];
  const accepted: Deno.TcpConn[] = [];
  try {
    for (let i = 0; i < 200; i++) {
      clients.push(await Deno.connect({ hostname: "127.0.0.1", port: listener.addr.port }));
      accepted.push(await listener.accept());
    }
    for (const lookUp of [tcpPeerUid, procPeerUid]) {
      const uids = await Promise.all(accepted.map((c) => lookUp(c.localAddr, c.remoteAddr)));
      assert.deepEqual(new Set(uids), new Set([Deno.uid()]));
      const stranger = { ...accepted[0]!.remoteAddr, port: 1 };
      assert.equal(await lookUp(accepted[0]!.localAddr, stranger), undefined);
    }
  } finally {
    for (const conn of [...clients, ...accepted]) conn.close();
  }
});
