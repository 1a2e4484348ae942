// Named memory templates (resources/content/memory-templates.json): listing them, and creating an entry from
// one after validating the body against the template's fields.
import { z } from 'zod';
import { loadContent } from '../../src/content.js';
import { GatewayError } from '../../src/errors.js';
import { defineTool } from '../../src/registry/define-tool.js';
import { zodIssuesToDetail } from '../../src/registry/registry.js';
import { resolveTarget } from './access.js';
import { putOne } from './entries.js';
import { Key, Namespace, OwnerHandle, Tags, Visibility } from './limits.js';

interface FieldSpec {
  type: 'string' | 'boolean' | 'number' | 'integer' | 'enum' | 'date' | 'email' | 'url' | 'array' | 'object';
  required?: boolean;
  max?: number;
  values?: string[];
  default?: unknown;
  items?: FieldSpec;
  fields?: Record<string, FieldSpec>;
  description?: string;
}

export interface MemoryTemplate {
  name: string;
  title: string;
  description: string;
  tags: string[];
  fields: Record<string, FieldSpec>;
}

function fieldSchema(f: FieldSpec): z.ZodType {
  let s: z.ZodType;
  switch (f.type) {
    case 'string':
      s = z.string().max(f.max ?? 10_000);
      break;
    case 'boolean':
      s = z.boolean();
      break;
    case 'number':
      s = z.number();
      break;
    case 'integer':
      s = z.number().int();
      break;
    case 'enum':
      s = z.enum(f.values as [string, ...string[]]);
      break;
    case 'date':
      s = z.iso.date();
      break;
    case 'email':
      s = z.email();
      break;
    case 'url':
      s = z.url({ protocol: /^https?$/ });
      break;
    case 'array':
      s = z.array(fieldSchema(f.items ?? { type: 'string' })).max(f.max ?? 1000);
      break;
    case 'object':
      s = objectSchema(f.fields ?? {});
      break;
  }
  if (f.description) s = s.describe(f.description);
  if (f.default !== undefined) return s.default(f.default as never);
  return f.required ? s : s.optional();
}

const objectSchema = (fields: Record<string, FieldSpec>) => z.strictObject(Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, fieldSchema(f)])));

export function templates(dataDir: string): MemoryTemplate[] {
  return loadContent<MemoryTemplate[]>('memory-templates', dataDir);
}

export const memoryTemplates = defineTool({
  name: 'memory_templates',
  title: 'Memory templates',
  toolset: 'memory',
  description: 'Named templates (task list, decision record, contact card, meeting notes, bookmark) with their fields as JSON Schema.',
  input: z.object({}),
  auth: 'public',
  annotations: { readOnlyHint: true },
  handler: (_input, ctx) => {
    const list = templates(ctx.config.dataDir).map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      tags: t.tags,
      schema: z.toJSONSchema(objectSchema(t.fields), { io: 'input' }),
      apply: `POST /memory/template/${t.name}/{namespace}/{key}`,
    }));
    return { templates: list, count: list.length };
  },
});

export const memoryTemplateApply = defineTool({
  name: 'memory_template_apply',
  title: 'Create an entry from a template',
  toolset: 'memory',
  description: "Validates `fields` against the named template and stores the result as a new entry (tagged with the template's tags).",
  input: z.object({
    template_name: z.string().min(1).max(64).describe('Template name, e.g. task-list.'),
    namespace: Namespace,
    key: Key,
    fields: z.record(z.string(), z.unknown()).default({}).describe("The template's fields."),
    visibility: Visibility.optional(),
    tags: Tags.optional(),
    if_version: z.number().int().min(0).optional().describe('0 = create only (409 if the key exists).'),
    handle: OwnerHandle,
  }),
  auth: 'optional_owner',
  annotations: { destructiveHint: false },
  handler: async (input, ctx) => {
    const t = templates(ctx.config.dataDir).find((x) => x.name === input.template_name);
    if (!t) throw new GatewayError('not_found', `No template named "${input.template_name}"; see GET /memory/templates.`);
    const parsed = objectSchema(t.fields).safeParse(input.fields);
    if (!parsed.success) {
      const detail = zodIssuesToDetail(parsed.error, input.fields).map((d) => ({ ...d, loc: ['fields', ...d.loc] }));
      throw new GatewayError('validation_error', `The fields do not fit the ${t.name} template.`, { detail });
    }
    const value = { template: t.name, ...(parsed.data as Record<string, unknown>) };
    const target = await resolveTarget(ctx, input.namespace, input.handle);
    const out = await putOne(ctx, target, {
      namespace: input.namespace,
      key: input.key,
      value: value as never,
      visibility: input.visibility,
      tags: [...new Set([...t.tags, ...(input.tags ?? [])])],
      if_version: input.if_version,
      handle: input.handle,
    });
    ctx.services.bus.emit('memory:changed', { ownerId: target.ownerId });
    return { ...out, template: t.name, value };
  },
});

export const templateTools = [memoryTemplates, memoryTemplateApply];
