// Task and context ids: UUIDv7 (RFC 9562), time-ordered so new rows land at the end of the database indexes
// instead of at random pages, with 74 random bits, so an anonymous task's id stays unguessable.
import { poolBytes } from '../random.js';

export function uuidv7(now = Date.now()): string {
  const b = poolBytes(16);
  b.writeUIntBE(now, 0, 6);
  b[6] = (b[6] & 0x0f) | 0x70;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
