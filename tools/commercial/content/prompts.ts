// The words every request shares: the role, the "format only" rule, and the message that sends a miss back.

export const SYSTEM_WRITER =
  'You are a professional copywriter and content writer working on a paid order. Write finished, publishable text in the language of the brief. ' +
  'Follow the requested format exactly: no preamble, no notes, no questions, nothing after the deliverable.';

export const SYSTEM_DEVELOPER =
  'You are a senior software developer delivering a paid task. Deliver complete, working code, not a sketch: no placeholders or "TODO" for the asked behaviour. ' +
  'Follow the requested format exactly: no preamble and nothing after the deliverable.';

/** The task, then how to answer: in Markdown by `format`, or as JSON when the server enforces a schema. */
export function taskMessage(task: string, format: string, structured: boolean): string {
  return structured
    ? `${task}\n\nReply with one JSON object matching the response schema, and nothing else.`
    : `${task}\n\nReply in exactly this Markdown format, with nothing before or after it:\n\n${format}`;
}

/** What the previous reply missed, and the ask to send the whole deliverable again. */
export function feedbackMessage(problems: string[], format: string, structured: boolean): string {
  const list = problems.map((p) => `- ${p}`).join('\n');
  const how = structured ? 'as one JSON object matching the response schema' : `in exactly this Markdown format:\n\n${format}`;
  return `Your previous reply could not be used:\n${list}\n\nReply again with the complete deliverable (not only the fixes), ${how}`;
}
