import assert from "node:assert/strict";
import { tcpPeerUid } from "../../bridge/bridge_peer.ts";
import { OtherUserClient, otherUsersUnavailable } from "./other_user.ts";

const OTHER_USERS = await otherUsersUnavailable();

Deno.test("tcpPeerUid() finds this process's own uid for its own connection", async () => {
  using listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  using client = await Deno.connect({ hostname: "127.0.0.1", port: listener.addr.port });
  using conn = await listener.accept();
  assert.equal(await tcpPeerUid(conn.localAddr, conn.remoteAddr), Deno.uid());
  assert.equal(client.remoteAddr.port, listener.addr.port);
});

Deno.test({
  name: "tcpPeerUid() finds another user's uid from /proc/net/tcp" +
    (OTHER_USERS ? ` [ignored: ${OTHER_USERS}]` : ""),
  ignore: OTHER_USERS !== undefined,
  async fn() {
    using listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    await using _other = await OtherUserClient.start(65534, listener.addr.port);
    using conn = await listener.accept();
    assert.equal(await tcpPeerUid(conn.localAddr, conn.remoteAddr), 65534);
  },
});
