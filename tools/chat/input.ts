// The OpenAI chat completion request, checked only as far as the gateway needs it. Unknown fields are kept
// (`loose`) so a proxied request reaches the upstream exactly as the client sent it.
import { z } from 'zod';

const ContentPart = z.object({ type: z.string().max(64), text: z.string().optional() }).loose();

export const ChatMessage = z
  .object({
    role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']).describe('Who wrote the message.'),
    content: z.union([z.string(), z.array(ContentPart), z.null()]).optional().describe('Text, or an array of content parts.'),
    name: z.string().max(256).optional(),
  })
  .loose();

export const ChatInput = z
  .object({
    model: z.string().min(1).max(256).describe('gateway-local, or a model id of the configured upstream (GET /v1/models).'),
    messages: z.array(ChatMessage).min(1).max(2000).describe('The conversation so far.'),
    stream: z.boolean().nullable().optional().describe('Answer as server-sent events ending with data: [DONE].'),
    stream_options: z
      .object({ include_usage: z.boolean().nullable().optional() })
      .loose()
      .nullable()
      .optional()
      .describe('include_usage: one last chunk with the token usage.'),
    n: z.number().int().min(1).max(8).nullable().optional().describe('Choices to generate (gateway-local repeats its one answer).'),
    max_tokens: z.number().int().min(1).nullable().optional(),
    max_completion_tokens: z.number().int().min(1).nullable().optional(),
    response_format: z.object({ type: z.string() }).loose().nullable().optional(),
  })
  .loose();

export type ChatRequest = z.output<typeof ChatInput>;

/** The text of a message: its string content, or its text parts joined. */
export function textOf(m: z.output<typeof ChatMessage>): string {
  if (typeof m.content === 'string') return m.content;
  if (Array.isArray(m.content)) return m.content.map((p) => (typeof p.text === 'string' ? p.text : '')).join('\n');
  return '';
}
