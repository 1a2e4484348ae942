// copy.email_sequence: 5 emails, each a subject, an optional preview line and a Markdown body. A body may come
// labelled ("Body:") or as the lines under the subject; an "email" of a line or two is an outline, not an email.
import { runAttempts, type Produced, type ProduceOptions } from './attempts.js';
import type { FieldSpecs } from './fields.js';
import { parseList, type ListKind } from './list.js';
import type { LlmSettings } from './model.js';
import { charCount } from './platforms.js';
import { SYSTEM_WRITER } from './prompts.js';
import { countWords } from './words.js';

export const EMAILS = 5;
/** Fewer words than this is an outline of an email. */
export const EMAIL_MIN_WORDS = 20;
const SUBJECT_MAX = 150;
const PREVIEW_MAX = 200;

export interface Email {
  subject: string;
  preview?: string;
  body: string;
}

export interface EmailSequence {
  emails: Email[];
}

type EmailField = 'subject' | 'preview' | 'body';

const FIELDS: FieldSpecs<EmailField> = {
  subject: { aliases: ['subject', 'subject line', 'email subject'] },
  preview: { aliases: ['preview', 'preview text', 'preview line', 'preheader', 'pre-header', 'preheader text'] },
  body: { aliases: ['body', 'email body', 'body copy', 'content', 'message', 'copy', 'text'], multiline: true },
};

const KIND: ListKind<EmailField, Email> = {
  noun: 'email',
  count: EMAILS,
  words: ['email', 'e-mail', 'mail', 'message', 'day'],
  jsonKeys: ['emails', 'sequence', 'email sequence'],
  fields: FIELDS,
  lead: ['subject'],
  build(f, rest) {
    const problems: string[] = [];
    const body = (f.body ?? rest).trim();
    if (!f.subject) problems.push('no subject line ("Subject: …")');
    else if (charCount(f.subject) > SUBJECT_MAX) problems.push(`the subject has ${charCount(f.subject)} characters; at most ${SUBJECT_MAX}`);
    if (f.preview && charCount(f.preview) > PREVIEW_MAX) problems.push(`the preview has ${charCount(f.preview)} characters; at most ${PREVIEW_MAX}`);
    if (countWords(body) < EMAIL_MIN_WORDS) problems.push(`the body has ${countWords(body)} words; write the full email (at least ${EMAIL_MIN_WORDS})`);
    return problems.length ? problems : { subject: f.subject!, ...(f.preview ? { preview: f.preview } : {}), body };
  },
};

export const parseEmails = (text: string) => parseList(text, KIND);

const SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['emails'],
  properties: {
    emails: {
      type: 'array',
      items: { type: 'object', additionalProperties: false, required: ['subject', 'preview', 'body'], properties: { subject: { type: 'string' }, preview: { type: 'string' }, body: { type: 'string' } } },
    },
  },
};

export async function produceEmails(input: { brief: string; platform?: string }, llm: LlmSettings | undefined, attempts: number, opts?: ProduceOptions): Promise<Produced<EmailSequence>> {
  const email = (n: number) => `### Email ${n}\nSubject: <subject line>\nPreview: <one-line preview text>\nBody:\n<the full email in Markdown>`;
  const produced = await runAttempts(
    llm,
    {
      system: SYSTEM_WRITER,
      task:
        `Write an email sequence of exactly ${EMAILS} emails that build on each other${input.platform ? ` (sent with ${input.platform})` : ''}. ` +
        `Each email has a subject line (under 60 characters is best), a preview line and a complete body ready to send.\n\nBrief:\n${input.brief}`,
      format: `${email(1)}\n\n${email(2)}\n\n…and so on up to Email ${EMAILS}.`,
      schema: { name: 'email_sequence', schema: SCHEMA },
      parse: parseEmails,
    },
    attempts,
    opts,
  );
  return { ...produced, deliverable: { emails: produced.deliverable } };
}
