/**
 * Harnesses and their adapters: what Link knows of each, the adapter contract (version 2) and how
 * an adapter is asked. The mini harness, the contract's reference, is its own folder (`mini/`), so
 * what knows harnesses by name loads no endpoint.
 * @module
 */
/** The harnesses Link knows by name, and the default. */
export { ACP_COMMAND_EXAMPLE, DEFAULT_HARNESS, KNOWN, type KnownHarness } from "./known.ts";
/** The adapter contract, version 2: each command's answer as one schema. */
export {
  ADAPTER_COMMANDS,
  type AdapterAnswer,
  type AdapterCommand,
  AdapterInput,
  ANSWERS,
  CONTRACT_FIELDS,
  CONTRACT_VERSION,
  ContractAnswer,
  type ContractField,
  EndpointAnswer,
  NeedsAnswer,
  needsFlags,
  needsLine,
  NeedsSpec,
  Risk,
} from "./contract.ts";
/** Finding an adapter and asking it one command, each failure a LinkError naming it. */
export {
  type Adapter,
  ADAPTER_MAX_BYTES,
  ADAPTER_TIMEOUT_MS,
  answers,
  askAdapter,
  askContract,
  type AskOptions,
  type BuiltInAdapter,
  type Env,
  findAdapter,
  readAnswer,
  writeInput,
} from "./ask_adapter.ts";
/** The adapters built into lnk: Link Harness's, the mini harness's and acp's, and their role. */
export { BUILT_INS } from "./built_ins.ts";
export { runAdapterRole, runLaunchRole } from "./adapter_role.ts";
/** The acp adapter's settings and how its command is read. */
export { AcpSettings, resolveCommand, splitCommand } from "./acp/mod.ts";
/** The registry the person's npm uses, as an install step's proxy reaches it (ADP-9). */
export { npmRegistryEndpoint } from "./npm.ts";
