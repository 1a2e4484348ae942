// SQL for namespace sharing (ACL): owner, namespace, grantee, permission.
import type { Db } from '../../../src/store/db.js';

export type Permission = 'read' | 'write';

export async function grant(db: Db, ownerId: string, namespace: string, granteeId: string, permission: Permission, now: number): Promise<void> {
  await db.run(
    `INSERT INTO memory_acl (owner_id, namespace, grantee_id, permission, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (owner_id, namespace, grantee_id) DO UPDATE SET permission = excluded.permission`,
    [ownerId, namespace, granteeId, permission, now],
  );
}

export const revoke = async (db: Db, ownerId: string, namespace: string, granteeId: string): Promise<boolean> =>
  (await db.run('DELETE FROM memory_acl WHERE owner_id = ? AND namespace = ? AND grantee_id = ?', [ownerId, namespace, granteeId])).changes > 0;

export async function permission(db: Db, ownerId: string, namespace: string, granteeId: string): Promise<Permission | null> {
  const row = await db.get<{ permission: Permission }>('SELECT permission FROM memory_acl WHERE owner_id = ? AND namespace = ? AND grantee_id = ?', [
    ownerId,
    namespace,
    granteeId,
  ]);
  return row?.permission ?? null;
}

export const sharesOf = (db: Db, ownerId: string, namespace: string) =>
  db.all<{ grantee: string; permission: Permission; created_at: number }>(
    'SELECT a.handle AS grantee, acl.permission, acl.created_at FROM memory_acl acl JOIN agents a ON a.id = acl.grantee_id WHERE acl.owner_id = ? AND acl.namespace = ? ORDER BY a.handle',
    [ownerId, namespace],
  );

/** Namespaces shared with an agent (for sync and context). */
export const sharedWith = (db: Db, granteeId: string) =>
  db.all<{ owner_id: string; owner: string; namespace: string; permission: Permission }>(
    'SELECT acl.owner_id, a.handle AS owner, acl.namespace, acl.permission FROM memory_acl acl JOIN agents a ON a.id = acl.owner_id WHERE acl.grantee_id = ?',
    [granteeId],
  );
