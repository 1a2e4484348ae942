// SQL that selects what POST /memory/forget removes: one query serves the dry run and the real run.
import type { Queryable } from '../../../src/store/db.js';

export interface ForgetFilter {
  agentId: string;
  namespace?: string;
  keyPrefix?: string;
  tags?: string[];
  olderThan?: number;
  match?: string;
  now: number;
  limit: number;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, '\\$&');

export function selectForgettable(q: Queryable, f: ForgetFilter) {
  const where = ['e.agent_id = ?', '(e.expires_at IS NULL OR e.expires_at > ?)'];
  const params: (string | number)[] = [f.agentId, f.now];
  if (f.namespace) where.push('e.namespace = ?'), params.push(f.namespace);
  if (f.keyPrefix) where.push("e.key LIKE ? ESCAPE '\\'"), params.push(`${escapeLike(f.keyPrefix)}%`);
  if (f.olderThan !== undefined) where.push('e.updated_at < ?'), params.push(f.olderThan);
  for (const t of f.tags ?? []) where.push('EXISTS (SELECT 1 FROM json_each(e.tags) WHERE value = ?)'), params.push(t);
  if (f.match) where.push('e.id IN (SELECT rowid FROM memory_fts WHERE memory_fts MATCH ?)'), params.push(`{namespace key text tags} : (${f.match})`);
  params.push(f.limit);
  return q.all<{ id: number; namespace: string; key: string; version: number; updated_at: number }>(
    `SELECT e.id, e.namespace, e.key, e.version, e.updated_at FROM memory_entries e WHERE ${where.join(' AND ')} ORDER BY e.namespace, e.key LIMIT ?`,
    params,
  );
}
