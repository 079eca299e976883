import type { ToolCall } from "./messages.ts";
import type { ToolCallDelta } from "./wire_schemas.ts";

interface OpenCall {
  id: string | undefined;
  name: string;
  args: string;
}

/**
 * Puts streamed tool call pieces back together: the first piece of a call carries its index, id
 * and name, later pieces add fragments of its arguments, cut anywhere in the JSON.
 */
export class ToolCallAssembler {
  #calls: OpenCall[] = [];
  #byIndex = new Map<number, OpenCall>();

  /** Takes the tool call pieces of one chunk. */
  add(deltas: readonly ToolCallDelta[]): void {
    for (const delta of deltas) {
      const call = this.#callFor(delta);
      if (delta.id && !call.id) call.id = delta.id;
      if (delta.function?.name && !call.name) call.name = delta.function.name;
      if (delta.function?.arguments) call.args += delta.function.arguments;
    }
  }

  /** Whether any call has started. */
  get size(): number {
    return this.#calls.length;
  }

  /**
   * The complete calls, in the order they started. A call without an id gets `call_<n>`, and
   * one with no arguments gets `{}`, since providers reject an empty string sent back to them.
   */
  finish(): ToolCall[] {
    const calls = this.#calls.map((call, n) => ({
      id: call.id ?? `call_${n}`,
      type: "function" as const,
      function: { name: call.name, arguments: call.args.trim() === "" ? "{}" : call.args },
    }));
    this.#calls = [];
    this.#byIndex.clear();
    return calls;
  }

  #callFor(delta: ToolCallDelta): OpenCall {
    const index = delta.index ?? undefined;
    if (index !== undefined) {
      const known = this.#byIndex.get(index);
      if (known) return known;
      const call: OpenCall = { id: undefined, name: "", args: "" };
      this.#byIndex.set(index, call);
      this.#calls.push(call);
      return call;
    }
    // A server that sends no index: a new id or a name starts a new call, anything else continues.
    const last = this.#calls.at(-1);
    const startsNew = !last || (delta.id && delta.id !== last.id) || (delta.function?.name && last.name);
    if (!startsNew && last) return last;
    const call: OpenCall = { id: undefined, name: "", args: "" };
    this.#calls.push(call);
    return call;
  }
}
