// Who is signed in, and the form token. The session is an HttpOnly, SameSite=Strict cookie scoped to /operator
// holding its expiry and an HMAC of it under a key derived from the operator token: never the token itself, so a
// cookie that leaks (a shared browser profile, a plain-HTTP hop) is not the gateway's admin credential, stops
// working after SESSION_MS, and stops at once when the token is changed. Every POST also carries a form token: an
// HMAC of the session under another derived key, so a page on another site, which can neither read the cookie nor
// this page, cannot forge one.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
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

/** How long a sign-in lasts. */
export const SESSION_MS = 12 * 3600 * 1000;

const derivedKey = (config: Config, purpose: string): Buffer => createHash('sha256').update(`${purpose}\0${config.operatorToken ?? ''}`).digest();
const sessionMac = (config: Config, expires: string): string => createHmac('sha256', derivedKey(config, 'operator-console-session')).update(expires).digest('base64url');

/** A new session for a sign-in with the operator token, valid SESSION_MS from `now`. */
export function newSession(config: Config, now: number): string {
  const expires = String(now + SESSION_MS);
  return `${expires}.${sessionMac(config, expires)}`;
}

const equal = (a: string, b: string): boolean => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** True when the request's cookie is a live session of this operator token. */
export function signedIn(req: IncomingMessage, config: Config, now = Date.now()): boolean {
  const session = sessionOf(req);
  if (!config.operatorToken || !session) return false;
  const [expires, mac] = session.split('.');
  return /^\d{1,16}$/.test(expires) && Number(expires) > now && mac !== undefined && equal(mac, sessionMac(config, expires));
}

/** The form token of a session (the same for every page of it, so several tabs work). */
export function formToken(config: Config, session: string): string {
  return createHmac('sha256', derivedKey(config, 'operator-console-form')).update(session).digest('base64url');
}

export function formTokenValid(config: Config, session: string | undefined, presented: string | null): boolean {
  return !!session && !!presented && equal(presented, formToken(config, session));
}

/** A browser form from another origin is refused before anything else (the form token is the second guard). */
export function sameOrigin(req: IncomingMessage, config: Config): boolean {
  const origin = req.headers.origin;
  return !origin || origin === new URL(config.baseUrl).origin || origin === `http://${req.headers.host}`;
}

export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new URLSearchParams((await readBody(req, 64 * 1024)) ?? '');
}

export const sessionCookie = (session: string, secure: boolean) =>
  `${COOKIE}=${session}; HttpOnly; SameSite=Strict; Path=/operator; Max-Age=${SESSION_MS / 1000}${secure ? '; Secure' : ''}`;
export const clearCookie = (secure: boolean) => `${COOKIE}=; HttpOnly; SameSite=Strict; Path=/operator; Max-Age=0${secure ? '; Secure' : ''}`;
