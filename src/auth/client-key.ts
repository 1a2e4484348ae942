// A stable, non-reversible key for a client address (provenance, anonymous limits): HMAC with the
// install's random pepper, so the database never holds raw addresses.
import { createHmac } from 'node:crypto';

export const makeClientKey =
  (pepper: string) =>
  (ip: string): string =>
    createHmac('sha256', pepper).update(ip).digest('base64url').slice(0, 32);
