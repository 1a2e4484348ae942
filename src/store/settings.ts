// Gateway-wide settings kept in the database (e.g. the install's random pepper for hashing addresses).
import { randomBytes } from 'node:crypto';
import type { Db } from './db.js';

/** The setting, made and stored when missing; read first, so an existing one costs no write (a start-up's round trip). */
export async function getOrCreateSetting(db: Db, key: string, make: () => string): Promise<string> {
  const read = () => db.get<{ value: string }>('SELECT value FROM gateway_settings WHERE key = ?', [key]);
  const kept = await read();
  if (kept) return kept.value;
  // Another process may store one meanwhile: whichever is stored first is everyone's.
  await db.run('INSERT INTO gateway_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING', [key, make()]);
  const row = await read();
  if (!row) throw new Error(`setting ${key} missing after insert`);
  return row.value;
}

export const installPepper = (db: Db): Promise<string> =>
  getOrCreateSetting(db, 'install_pepper', () => randomBytes(32).toString('hex'));

export async function setSetting(db: Db, key: string, value: string): Promise<void> {
  await db.run('INSERT INTO gateway_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [key, value]);
}
