// Who is signed in, and the form token. The session is the operator token in an HttpOnly, SameSite=Strict cookie
// scoped to /operator. Every POST also carries a form token: an HMAC of the session under a key derived from the
// operator token, so a page on another site, which can neither read the cookie nor this page, cannot forge one.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isOperator } from '../../auth/operator.js';
import type { Config } from '../../config.js';
import { readBody } from '../read-body.js';

export const COOKIE = 'gw_operator';

export function sessionOf(req: IncomingMessage): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === COOKIE) {
      try {
        return decodeURIComponent(v.join('='));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** True when the request's cookie holds the operator token. */
export const signedIn = (req: IncomingMessage, config: Config): boolean => isOperator(config, sessionOf(req));

/** The form token of a session (the same for every page of it, so several tabs work). */
export function formToken(config: Config, session: string): string {
  const key = createHash('sha256').update(`operator-console-form\0${config.operatorToken ?? ''}`).digest();
  return createHmac('sha256', key).update(session).digest('base64url');
}

export function formTokenValid(config: Config, session: string | undefined, presented: string | null): boolean {
  if (!session || !presented) return false;
  const want = Buffer.from(formToken(config, session));
  const got = Buffer.from(presented);
  return want.length === got.length && timingSafeEqual(want, got);
}

/** A browser form from another origin is refused before anything else (the form token is the second guard). */
export function sameOrigin(req: IncomingMessage, config: Config): boolean {
  const origin = req.headers.origin;
  return !origin || origin === new URL(config.baseUrl).origin || origin === `http://${req.headers.host}`;
}

export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new URLSearchParams((await readBody(req, 64 * 1024)) ?? '');
}

export const sessionCookie = (token: string, secure: boolean) => `${COOKIE}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/operator${secure ? '; Secure' : ''}`;
export const clearCookie = (secure: boolean) => `${COOKIE}=; HttpOnly; SameSite=Strict; Path=/operator; Max-Age=0${secure ? '; Secure' : ''}`;
