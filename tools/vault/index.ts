// The vault: secrets encrypted at rest under a key only the agent's own secret can derive. Store returns
// metadata only; list never shows values; get decrypts one value for its owner.
import { z } from 'zod';
import { jsonValue } from '../../src/registry/json-value.js';
import { GatewayError } from '../../src/errors.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { ToolContext } from '../../src/registry/types.js';
import { OwnerHandle } from '../memory/limits.js';
import { seal } from './crypto.js';
import { keyFor, openEntry } from './keys.js';
import { vaultLogin, vaultLogout } from './login.js';
import * as store from './store.js';

export const VaultName = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits, ".", "_" and "-"')
  .describe('Entry name (1-100 characters of A-Z a-z 0-9 . _ -).');

const Metadata = z
  .object({
    allowed_hosts: z
      .array(z.string().toLowerCase().regex(/^(\*\.)?[a-z0-9.-]+(:\d+)?$/, 'a host name, optionally *.domain'))
      .max(50)
      .optional()
      .describe('Hosts /vault/call may send this credential to (e.g. api.example.com, *.example.com); any other host is refused.'),
  })
  .catchall(jsonValue())
  .default({})
  .describe('Plaintext metadata (never secret), e.g. allowed_hosts, a description.');

const MAX_VALUE_BYTES = 64 * 1024;

const describe = (r: Omit<store.VaultRow, 'nonce' | 'ciphertext'>) => ({
  name: r.name,
  kind: r.kind,
  metadata: JSON.parse(r.metadata) as Record<string, unknown>,
  created_at: new Date(r.created_at).toISOString(),
  updated_at: new Date(r.updated_at).toISOString(),
});

export const vaultPut = defineTool({
  name: 'vault_put',
  secretFields: { input: ['value'] },
  title: 'Store a secret',
  toolset: 'vault',
  description:
    'Encrypts a secret (a string, or an object of fields such as {username, password}) under a key derived from your ' +
    'agent secret; name, kind and metadata stay readable. Returns metadata only. Bearer secret only.',
  input: z.object({
    name: VaultName,
    value: z.union([z.string().min(1), z.record(z.string(), z.string())]).describe('The secret: a string or an object of string fields.'),
    kind: z.string().min(1).max(40).default('secret').describe('What it is: api_key, password, token, oauth…'),
    metadata: Metadata,
    handle: OwnerHandle,
  }),
  auth: 'owner',
  acceptsLogin: true,
  selfField: 'handle',
  annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
  handler: async (input, ctx) => {
    const me = ctx.caller.agent!;
    const plaintext = JSON.stringify(input.value);
    if (Buffer.byteLength(plaintext) > MAX_VALUE_BYTES) throw new GatewayError('payload_too_large', `A vault value holds at most ${MAX_VALUE_BYTES} bytes.`);
    const sealed = seal(await keyFor(ctx), me.id, input.name, plaintext);
    const t = await store.putEntry(ctx.db, me.id, { name: input.name, kind: input.kind, metadata: JSON.stringify(input.metadata), ...sealed }, ctx.clock.now());
    return describe({ name: input.name, kind: input.kind, metadata: JSON.stringify(input.metadata), ...t });
  },
});

export const vaultList = defineTool({
  name: 'vault_list',
  title: 'List vault entries',
  toolset: 'vault',
  description: 'Names, kinds, metadata and timestamps of your vault entries; never values.',
  input: z.object({ handle: OwnerHandle }),
  auth: 'owner',
  acceptsLogin: true,
  selfField: 'handle',
  annotations: { readOnlyHint: true },
  handler: async (_input, ctx) => ({ entries: (await store.listEntries(ctx.db, ctx.caller.agent!.id)).map(describe) }),
});

export const vaultGet = defineTool({
  name: 'vault_get',
  secretFields: { output: ['value'] },
  title: 'Read a secret',
  toolset: 'vault',
  description: 'Decrypts and returns one vault value (Bearer secret only).',
  input: z.object({ name: VaultName, handle: OwnerHandle }),
  auth: 'owner',
  acceptsLogin: true,
  selfField: 'handle',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => {
    const { row, value } = await openEntry(ctx, input.name);
    return { ...describe(row), value };
  },
});

export const vaultDelete = defineTool({
  name: 'vault_delete',
  title: 'Delete a secret',
  toolset: 'vault',
  description: 'Deletes a vault entry.',
  input: z.object({ name: VaultName, handle: OwnerHandle }),
  auth: 'owner',
  acceptsLogin: true,
  selfField: 'handle',
  annotations: { destructiveHint: true, idempotentHint: true },
  handler: async (input, ctx) => {
    if (!(await store.deleteEntry(ctx.db, ctx.caller.agent!.id, input.name))) throw new GatewayError('not_found', `No vault entry named "${input.name}".`);
    return { deleted: true, name: input.name };
  },
});

import { vaultCall } from './call.js';

export const vaultTools = [vaultPut, vaultList, vaultGet, vaultDelete, vaultCall, vaultLogin, vaultLogout];
