/**
 * Messages, tool definitions and requests in the OpenAI chat completions format. Keys keep the
 * wire's spelling (`tool_calls`, `tool_call_id`), since these objects go to the provider as they are.
 */

/** A JSON value, as tool schemas and arguments hold. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** One tool call the model made; `arguments` is the JSON text exactly as the model wrote it. */
export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** A part of a user message with more than text. */
export type ContentPart =
  | { type: "text"; text: string }
  | { type: "image_url"; image_url: { url: string } };

/** The instructions the conversation starts with. */
export interface SystemMessage {
  role: "system";
  content: string;
}

/** What a person (or another agent, named in `name`) said. */
export interface UserMessage {
  role: "user";
  content: string | ContentPart[];
  name?: string;
}

/** What the model answered: text, tool calls, or both. */
export interface AssistantMessage {
  role: "assistant";
  content: string | null;
  tool_calls?: ToolCall[];
}

/** A tool's answer to one call. */
export interface ToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

/** Any message of a conversation. */
export type ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** A tool the model may call, with its parameters as JSON Schema. */
export interface ToolDefinition {
  type: "function";
  function: { name: string; description: string; parameters: { [key: string]: JsonValue } };
}

/** What one call to the model asks. */
export interface ChatRequest {
  model: string;
  messages: readonly ChatMessage[];
  tools?: readonly ToolDefinition[];
  toolChoice?: "auto" | "none" | "required";
  maxTokens?: number;
  temperature?: number;
}

/**
 * The request body, always built in one key order, so the same request is the same bytes from
 * call to call and the provider's prompt cache holds (PRN-2).
 */
export function chatBody(request: ChatRequest, options: { stream: boolean }): string {
  const body: Record<string, unknown> = {
    model: request.model,
    messages: request.messages.map(canonicalMessage),
  };
  if (request.tools?.length) body.tools = request.tools.map(canonicalTool);
  if (request.toolChoice) body.tool_choice = request.toolChoice;
  if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  body.stream = options.stream;
  if (options.stream) body.stream_options = { include_usage: true };
  return JSON.stringify(body);
}

function canonicalMessage(message: ChatMessage): ChatMessage {
  switch (message.role) {
    case "system":
      return { role: "system", content: message.content };
    case "user":
      return message.name === undefined
        ? { role: "user", content: message.content }
        : { role: "user", content: message.content, name: message.name };
    case "assistant": {
      const calls = message.tool_calls?.map((call) => ({
        id: call.id,
        type: "function" as const,
        function: { name: call.function.name, arguments: call.function.arguments },
      }));
      return calls?.length
        ? { role: "assistant", content: message.content, tool_calls: calls }
        : { role: "assistant", content: message.content };
    }
    case "tool":
      return { role: "tool", tool_call_id: message.tool_call_id, content: message.content };
  }
}

function canonicalTool(tool: ToolDefinition): ToolDefinition {
  const { name, description, parameters } = tool.function;
  return { type: "function", function: { name, description, parameters } };
}
