// Each platform's length limits, in characters. Ads follow the networks' published field limits (Google's
// responsive search ads: 30-character headlines, 90-character descriptions) or, where a network allows more
// than reads well, the ceiling of 280 for the body. A call to action is a button or a closing line,
// so 30 everywhere. Unknown platforms get generic limits. Posts get the network's post limit.

export interface AdLimits {
  id: string;
  name: string;
  headline: number;
  body: number;
  call_to_action: number;
}

const AD_PLATFORMS: (AdLimits & { match: RegExp })[] = [
  { id: 'google_ads', name: 'Google Ads', match: /google|adwords|\bsearch ads?\b/, headline: 30, body: 90, call_to_action: 30 },
  { id: 'meta', name: 'Meta (Facebook/Instagram)', match: /facebook|\bfb\b|\bmeta\b|instagram|\big\b/, headline: 40, body: 280, call_to_action: 30 },
  { id: 'linkedin', name: 'LinkedIn', match: /linked\s*in/, headline: 70, body: 280, call_to_action: 30 },
  { id: 'x', name: 'X (Twitter)', match: /twitter|^x$|\bx\.com\b|^x\b|\bx ads\b/, headline: 70, body: 280, call_to_action: 30 },
];

const GENERIC_AD: AdLimits = { id: 'generic', name: 'generic', headline: 60, body: 300, call_to_action: 30 };

export function adLimits(platform: string | undefined): AdLimits {
  const p = (platform ?? '').trim().toLowerCase();
  const hit = p ? AD_PLATFORMS.find((x) => x.match.test(p)) : undefined;
  if (!hit) return GENERIC_AD;
  const { match: _match, ...limits } = hit;
  return limits;
}

export interface PostLimits {
  id: string;
  name: string;
  chars: number;
}

const POST_PLATFORMS: (PostLimits & { match: RegExp })[] = [
  { id: 'x', name: 'X (Twitter)', match: /twitter|^x$|\bx\.com\b|^x\b/, chars: 280 },
  { id: 'bluesky', name: 'Bluesky', match: /bluesky|bsky/, chars: 300 },
  { id: 'threads', name: 'Threads', match: /threads/, chars: 500 },
  { id: 'mastodon', name: 'Mastodon', match: /mastodon|fediverse/, chars: 500 },
  { id: 'linkedin', name: 'LinkedIn', match: /linked\s*in/, chars: 3000 },
  { id: 'instagram', name: 'Instagram', match: /instagram|\big\b/, chars: 2200 },
  { id: 'tiktok', name: 'TikTok', match: /tik\s*tok/, chars: 2200 },
  { id: 'facebook', name: 'Facebook', match: /facebook|\bfb\b|\bmeta\b/, chars: 5000 },
];

const GENERIC_POST: PostLimits = { id: 'generic', name: 'generic', chars: 1000 };

export function postLimits(platform: string | undefined): PostLimits {
  const p = (platform ?? '').trim().toLowerCase();
  const hit = p ? POST_PLATFORMS.find((x) => x.match.test(p)) : undefined;
  if (!hit) return GENERIC_POST;
  const { match: _match, ...limits } = hit;
  return limits;
}

/** Length as a person counts it: code points, so an emoji is one. */
export const charCount = (s: string): number => [...s].length;
