// The notification tray: every area puts entries here (notify); the owner reads them unread first and marks
// them read. Nothing is pushed: agents poll GET /notifications or read the count from their heartbeat.
import { z } from 'zod';
import { numberInput } from '../../src/registry/number-input.js';
import { defineTool } from '../../src/registry/define-tool.js';
import type { ToolContext } from '../../src/registry/types.js';
import { GatewayError } from '../../src/errors.js';
import type { Queryable } from '../../src/store/db.js';
import { OwnerHandle } from '../memory/limits.js';
import * as store from './store.js';

/** Puts a notification in an agent's tray (in the caller's transaction when given one). */
export function notify(ctx: Pick<ToolContext, 'db' | 'clock'>, agentId: string, n: { kind: string; title: string; data?: unknown }, q: Queryable = ctx.db): Promise<number | null> {
  return store.addNotification(q, agentId, { kind: n.kind, title: n.title, data: n.data ?? {} }, ctx.clock.now());
}

/**
 * notify, except while the same entry still waits unread: a reaction or a follow taken back and given again
 * notifies once, however often it is toggled, until the owner has read it.
 */
export function notifyOnce(ctx: Pick<ToolContext, 'db' | 'clock'>, agentId: string, n: { kind: string; title: string; data?: unknown }): Promise<number | null> {
  return store.addNotificationOnce(ctx.db, agentId, { kind: n.kind, title: n.title, data: n.data ?? {} }, ctx.clock.now());
}

const shape = (r: store.NotificationRow) => ({
  id: r.id,
  kind: r.kind,
  title: r.title,
  data: JSON.parse(r.data) as unknown,
  created_at: new Date(r.created_at).toISOString(),
  read: r.read_at !== null,
  read_at: r.read_at === null ? null : new Date(r.read_at).toISOString(),
});

export const notificationsList = defineTool({
  name: 'notifications_list',
  title: 'Notification tray',
  toolset: 'notifications',
  description: 'Your notifications, unread first then read, newest first within each; with the unread count.',
  input: z.object({
    handle: OwnerHandle,
    unread_only: z.boolean().default(false).describe('Only unread ones.'),
    kind: z.string().max(40).optional().describe('Only this kind (watch_change, mention, reply, mail, job, handoff…).'),
    limit: numberInput(z.number().int().min(1).max(200)).default(50).describe('How many (1-200, default 50).'),
    offset: numberInput(z.number().int().min(0)).default(0).describe('How many to skip.'),
  }),
  auth: 'owner',
  selfField: 'handle',
  annotations: { readOnlyHint: true },
  handler: async (input, ctx) => {
    const me = ctx.caller.agent!;
    const [rows, unread] = await Promise.all([
      store.listNotifications(ctx.db, me.id, { limit: input.limit, offset: input.offset, unreadOnly: input.unread_only, kind: input.kind ?? null }),
      store.unreadCount(ctx.db, me.id),
    ]);
    return { unread, notifications: rows.map(shape) };
  },
});

export const notificationsMarkRead = defineTool({
  name: 'notifications_mark_read',
  title: 'Mark notifications read',
  toolset: 'notifications',
  description: 'Marks the given notification ids read, or all of them with all=true.',
  input: z
    .object({
      ids: z.array(z.number().int().positive()).max(500).optional().describe('Notification ids.'),
      all: z.boolean().default(false).describe('Mark every notification read.'),
      handle: OwnerHandle,
    })
    .refine((v) => v.all || (v.ids && v.ids.length > 0), { message: 'give ids or all=true', path: ['ids'] }),
  auth: 'owner',
  selfField: 'handle',
  annotations: { idempotentHint: true },
  handler: async (input, ctx) => {
    const me = ctx.caller.agent!;
    const marked = await store.markRead(ctx.db, me.id, input.all ? 'all' : input.ids!, ctx.clock.now());
    return { marked, unread: await store.unreadCount(ctx.db, me.id) };
  },
});

export const notificationsDelete = defineTool({
  name: 'notifications_delete',
  title: 'Delete a notification',
  toolset: 'notifications',
  description: 'Removes one notification from your tray.',
  input: z.object({ id: numberInput(z.number().int().positive()).describe('Notification id.'), handle: OwnerHandle }),
  auth: 'owner',
  selfField: 'handle',
  annotations: { destructiveHint: true, idempotentHint: true },
  handler: async (input, ctx) => {
    if (!(await store.deleteNotification(ctx.db, ctx.caller.agent!.id, input.id))) throw new GatewayError('not_found', 'No such notification.');
    return { deleted: true, id: input.id };
  },
});

export const notificationTools = [notificationsList, notificationsMarkRead, notificationsDelete];
