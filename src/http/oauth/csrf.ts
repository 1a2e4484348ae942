// CSRF protection of the sign-in forms: a token bound to the interaction (an HMAC of its uid under the
// install's cookie key) in every form, checked with the Origin header; the interaction cookie is needed too.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const csrfToken = (key: string, uid: string): string => createHmac('sha256', key).update(`oauth-csrf:${uid}`).digest('base64url');

export function csrfOk(key: string, uid: string, presented: string | null): boolean {
  const want = Buffer.from(csrfToken(key, uid));
  const got = Buffer.from(presented ?? '');
  return got.length === want.length && timingSafeEqual(got, want);
}

/** A form posted from another site is refused (browsers send Origin on POST). */
export function sameOrigin(req: IncomingMessage, baseUrl: string): boolean {
  const origin = req.headers.origin;
  return !origin || origin === new URL(baseUrl).origin || origin === `http://${req.headers.host}` || origin === `https://${req.headers.host}`;
}
