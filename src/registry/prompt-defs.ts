// MCP prompts are data: a template with named arguments. prompts/ holds the definitions and src/mcp
// serves them; the types live here, beside the tool type, so a capability never imports an adapter.
import type { InputAnswers, InputRound } from './call-types.js';
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
  render(args: Record<string, string>, answers?: InputAnswers): string | PromptMessage[] | Promise<string | PromptMessage[]>;
  /**
   * What the prompt needs from the client before it renders, in rounds, as a tool's `inputs` (registry/ask-step.ts):
   * called with the answers so far, it returns the next round or null; `render` gets them all. A client that cannot
   * answer an optional question is not asked; one that cannot answer a required one is refused.
   */
  inputs?(args: Record<string, string>, answers: InputAnswers): InputRound | null;
}
