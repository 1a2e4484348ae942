// MCP prompts are data: a template with named arguments. prompts/ holds the definitions and src/mcp
// serves them; the types live here, beside the tool type, so a capability never imports an adapter.
import type { ContentBlock } from './content-result.js';

export interface PromptArg {
  name: string;
  description: string;
  required?: boolean;
}

/** One message of a rendered prompt: text, an image, audio or an embedded resource. */
export interface PromptMessage {
  role: 'user' | 'assistant';
  content: ContentBlock;
}

export interface PromptDef {
  name: string;
  title?: string;
  description: string;
  arguments: PromptArg[];
  /**
   * The prompt for these arguments: one text (a single user message) or a list of messages. A GatewayError
   * thrown here (an argument that makes no sense) is answered as invalid params.
   */
  render(args: Record<string, string>): string | PromptMessage[] | Promise<string | PromptMessage[]>;
}
