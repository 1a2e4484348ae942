// Hosted artifacts: text or bytes behind an unguessable, expiring URL, always served as an attachment.
import { z } from 'zod';
import { numberInput } from '../../src/registry/number-input.js';
import { GatewayError } from '../../src/errors.js';
import { takeAnonymousCreateOf } from '../../src/anonymous-creates.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { FileResult } from '../../src/registry/types.js';
import { OwnerHandle } from '../memory/limits.js';
import { AGENT_MAX_BYTES, AGENT_MAX_TTL, ANON_MAX_BYTES, ANON_MAX_TTL, describeArtifact, storeArtifact } from './service.js';
import { contentOf } from '../../src/blobs/content.js';
import { artifactById, countArtifacts, listArtifacts } from './store.js';

const ContentType = z
  .string()
  .max(100)
  .regex(/^[\w.+-]+\/[\w.+-]+(\s*;\s*[\w-]+=[\w.-]+)?$/, 'a MIME type such as text/plain');

const BASE64 = /^[A-Za-z0-9+/\-_]*={0,2}$/;

/** curl's type for --data-binary without -H: it says nothing about the bytes, so they are stored as octet-stream. */
const FORM_DEFAULT = /^\s*application\/x-www-form-urlencoded\s*(;|$)/i;

/** The type a raw body is stored with: its Content-Type when that is a real MIME type for it, else none. */
function typeOfUpload(contentType: string): string | undefined {
  const t = contentType.trim();
  return !FORM_DEFAULT.test(t) && ContentType.safeParse(t).success ? t : undefined;
}

const invalid = (loc: string, msg: string) => new GatewayError('validation_error', msg, { detail: [{ loc: ['body', loc], msg, type: 'value_error' }] });

/** The bytes of base64 text (standard or URL-safe, whitespace ignored); 422 when it is not base64. */
function decodeBase64(text: string): Buffer {
  // Fast path without scanning the text twice: Node skips characters that are not base64, so only a clean
  // string (of a length base64 can have) decodes to exactly the bytes its length promises.
  const bytes = Buffer.from(text, 'base64');
  const chars = text.length - (text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0);
  if (chars % 4 !== 1 && bytes.length === Math.floor((chars * 3) / 4)) return bytes;
  const clean = text.replace(/\s+/g, '');
  if (!BASE64.test(clean) || clean.replace(/=+$/, '').length % 4 === 1) throw invalid('base64', 'base64 is not valid base64.');
  return Buffer.from(clean, 'base64');
}

export const artifactCreate = defineTool({
  name: 'artifact_create',
  title: 'Host an artifact',
  toolset: 'artifacts',
  description:
    'Stores text or base64 bytes behind an unguessable URL (/artifacts/<id>) that anyone holding it can download as an ' +
    `attachment until it expires. Anonymous: up to ${ANON_MAX_BYTES / 1024 / 1024} MB for 24 h; registered agents: up to ` +
    `${AGENT_MAX_BYTES / 1024 / 1024} MB for 7 days (413 over). Returns id, url, bytes, sha256, expires_at. Over REST the ` +
    'bytes may also be the raw request body (any non-JSON Content-Type), with filename and ttl_seconds in the query.',
  input: z.object({
    text: z.string().optional().describe('UTF-8 text content.'),
    base64: z.string().optional().describe('Binary content, base64 (standard or URL-safe).'),
    filename: z.string().min(1).max(200).optional().describe('Download file name.'),
    content_type: ContentType.optional().describe('MIME type (default text/plain for text, application/octet-stream for bytes, the request type for a raw body).'),
    ttl_seconds: z.number().int().min(1).optional().describe('Lifetime in seconds (capped at the limit for the caller).'),
  }),
  auth: 'optional_owner',
  annotations: { destructiveHint: false, idempotentHint: false },
  handler: async (input, ctx) => {
    const agent = ctx.caller.agent;
    const upload = ctx.upload;
    const given = Number(input.text !== undefined) + Number(input.base64 !== undefined) + Number(upload !== undefined);
    if (given !== 1) throw invalid('text', upload ? 'the request body is the content: give no text or base64 beside it' : 'give exactly one of text or base64');
    const content = upload ? upload.content : contentOf(input.text !== undefined ? Buffer.from(input.text, 'utf8') : decodeBase64(input.base64!));
    const uploadType = upload ? typeOfUpload(upload.contentType) : undefined;
    const max = agent ? AGENT_MAX_BYTES : ANON_MAX_BYTES;
    if (content.size > max) {
      throw new GatewayError('payload_too_large', `The artifact is ${content.size} bytes; the limit is ${max}${agent ? '' : ' for anonymous uploads (register for 5 MB)'}.`, {
        extra: { limit: max, bytes: content.size },
      });
    }
    const maxTtl = agent ? AGENT_MAX_TTL : ANON_MAX_TTL;
    if (!agent) await takeAnonymousCreateOf(ctx, 'artifacts', 'Artifact uploads');
    return storeArtifact(ctx, {
      content,
      contentType: input.content_type ?? uploadType ?? (input.text !== undefined ? 'text/plain; charset=utf-8' : 'application/octet-stream'),
      filename: input.filename ?? (input.text !== undefined ? 'artifact.txt' : 'artifact.bin'),
      ttlSeconds: Math.min(input.ttl_seconds ?? maxTtl, maxTtl),
      agentId: agent?.id ?? null,
      source: 'upload',
      clientKey: agent ? null : ctx.services.clientKey(ctx.caller.credentials.ip),
    });
  },
});

export const artifactGet = defineTool({
  name: 'artifact_get',
  title: 'Fetch an artifact',
  toolset: 'artifacts',
  description: 'The bytes of an artifact as an attachment, or with meta=1 its JSON metadata. Expired: 410.',
  input: z.object({
    id: z.string().min(8).max(100).describe('The artifact id (its capability token).'),
    meta: numberInput(z.number().int().min(0).max(1)).default(0).describe('1 = metadata instead of the bytes.'),
  }),
  auth: 'public',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => {
    const a = await artifactById(ctx.db, input.id);
    if (!a) throw new GatewayError('not_found', 'No such artifact.');
    if (a.expires_at <= ctx.clock.now()) throw new GatewayError('gone', 'This artifact has expired.');
    if (input.meta === 1 || ctx.caller.credentials.transport !== 'rest') {
      const meta = describeArtifact(ctx, a);
      if (input.meta === 1) return meta;
      // Over MCP and A2A the bytes come back as text (or base64) inside the result.
      const bytes = await ctx.services.blobs.get(a.sha256);
      if (!bytes) throw new GatewayError('gone', 'The bytes of this artifact are gone.');
      const text = bytes.toString('utf8');
      return Buffer.from(text, 'utf8').equals(bytes) ? { ...meta, text } : { ...meta, base64: bytes.toString('base64') };
    }
    const bytes = await ctx.services.blobs.get(a.sha256);
    if (!bytes) throw new GatewayError('gone', 'The bytes of this artifact are gone.');
    const file: FileResult = { kind: 'file', bytes, contentType: a.content_type, filename: a.filename, sha256: a.sha256, modifiedAt: a.created_at };
    return file;
  },
});

export const artifactList = defineTool({
  name: 'artifact_list',
  title: 'Your artifacts',
  toolset: 'artifacts',
  description: 'Metadata of your live artifacts, newest first (never the bytes).',
  input: z.object({
    handle: OwnerHandle,
    limit: numberInput(z.number().int().min(1).max(200)).default(50).describe('How many (1-200, default 50).'),
    offset: numberInput(z.number().int().min(0)).default(0).describe('How many to skip.'),
  }),
  auth: 'owner',
  selfField: 'handle',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => {
    const now = ctx.clock.now();
    const me = ctx.caller.agent!;
    const [rows, total] = await Promise.all([listArtifacts(ctx.db, me.id, input.limit, input.offset, now), countArtifacts(ctx.db, me.id, now)]);
    return { artifacts: rows.map((a) => describeArtifact(ctx, a)), total, limit: input.limit, offset: input.offset };
  },
});

export const artifactTools = [artifactCreate, artifactGet, artifactList];
export { createArtifactWorkers } from './sweep.js';
