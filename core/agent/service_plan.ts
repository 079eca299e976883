import { roleArgv, roleEnv } from "../base/mod.ts";
import type { AgentContext } from "./context.ts";
import type { AgentSettings } from "./settings.ts";
import { type ServiceDefinition, serviceNames, type ServiceRole } from "./services/mod.ts";

/** The role each service runs (ARCHITECTURE.md section 1). */
const ROLE_ARGS: Record<ServiceRole, (id: string) => string[]> = {
  bridge: (id) => ["agent", "bridge", "--agent", id],
  agent: (id) => ["agent", "run", "--agent", id],
};

/** The service definition of one of an agent's two services. */
export function serviceFor(ctx: AgentContext, agent: AgentSettings, role: ServiceRole): ServiceDefinition {
  return {
    role,
    agentId: agent.id,
    names: serviceNames(role, agent.id),
    description: `Link ${role === "agent" ? "agent" : "bridge"} of "${agent.name}" (${agent.id})`,
    argv: roleArgv(ROLE_ARGS[role](agent.id)),
    env: { ...roleEnv(), ...ctx.env.toObject(), HOME: ctx.paths.home },
  };
}
