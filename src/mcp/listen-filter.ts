// A subscriptions/listen request (over HTTP or stdio) keeps only the resource URIs its caller may watch: the SDK's
// acknowledgement then lists what is honoured, so the client sees which were refused.

/** Whether a subscriber hears of a change now: yes; no (it may no longer read it); lapsed (its credentials act for no one). */
export type Hearing = 'yes' | 'no' | 'lapsed';

/** Drops from `notifications` the URIs `mayWatch` refuses; returns the URIs kept. */
export async function keepWatchable(notifications: { resourceSubscriptions?: unknown } | undefined, mayWatch: (uri: string) => Promise<boolean>): Promise<string[]> {
  const uris = notifications?.resourceSubscriptions;
  if (!Array.isArray(uris)) return [];
  const allowed = await Promise.all(uris.map((u) => (typeof u === 'string' ? mayWatch(u) : true)));
  const kept = uris.filter((_, i) => allowed[i]);
  notifications!.resourceSubscriptions = kept;
  return kept.filter((u): u is string => typeof u === 'string');
}
