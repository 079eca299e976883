import type { Group } from "../command.ts";
import { chat } from "./chat/mod.ts";
import { allow } from "./allow.ts";
import { connect } from "./connect.ts";
import { create } from "./create.ts";
import { deny } from "./deny.ts";
import { disconnect } from "./disconnect.ts";
import { harness } from "./harness/mod.ts";
import { list } from "./list.ts";
import { logs } from "./logs.ts";
import { memory } from "./memory.ts";
import { remove } from "./remove.ts";
import { restore } from "./restore.ts";
import { schedule } from "./schedule.ts";
import { secret } from "./secret.ts";
import { share, unshare } from "./share.ts";
import { skill } from "./skill.ts";
import { show } from "./show.ts";
import { start } from "./start.ts";
import { status } from "./status.ts";
import { stop } from "./stop.ts";
import { team } from "./team.ts";
import { use } from "./use.ts";
import { webhook } from "./webhook.ts";

/** `lnk agent ...`: create, run and talk to agents. */
export const agent: Group = {
  summary: "Create, start, stop and talk to your agents",
  commands: {
    create,
    list,
    show,
    start,
    stop,
    status,
    logs,
    chat,
    schedule,
    skill,
    memory,
    connect,
    disconnect,
    share,
    unshare,
    remove,
    restore,
    allow,
    deny,
    secret,
    webhook,
    use,
    harness,
    team,
  },
};
