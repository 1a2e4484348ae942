// MCP prompts are data: a text template with named arguments. prompts/ holds the definitions and src/mcp
// serves them; the types live here, beside the tool type, so a capability never imports an adapter.

export interface PromptArg {
  name: string;
  description: string;
  required?: boolean;
}

export interface PromptDef {
  name: string;
  title?: string;
  description: string;
  arguments: PromptArg[];
  render(args: Record<string, string>): string;
}
