// How an agent is shown publicly: profile, identity card, invite record.
import type { Config } from '../../src/config.js';
import type { AgentRow } from './store.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function publicProfile(a: AgentRow, config: Config) {
  const base = config.baseUrl;
  return {
    handle: a.handle,
    bio: a.bio,
    xp: a.xp,
    member_since: iso(a.created_at),
    last_seen_at: iso(a.last_seen_at),
    links: {
      profile: `${base}/agents/${a.handle}`,
      identity_card: `${base}/identity/${a.handle}`,
      invite: `${base}/invite/${a.handle}`,
    },
  };
}

export const inviteUrl = (config: Config, handle: string): string =>
  `${config.baseUrl}/start?via=${encodeURIComponent(handle)}`;
