import { route, type Route } from '../src/http/route.js';

export const socialRoutes: Route[] = [
  route('POST', '/follow/{target}', 'follow', { summary: 'Follow a handle' }),
  route('DELETE', '/follow/{target}', 'unfollow', { summary: 'Unfollow a handle' }),
  route('GET', '/followers/{handle}', 'followers_list', { summary: 'Who follows a handle' }),
  route('GET', '/following/{handle}', 'following_list', { summary: 'Who a handle follows' }),
  route('GET', '/feed', 'feed', { summary: 'Posts by the handles you follow' }),
  route('POST', '/mail', 'mail_send', { status: 201, summary: 'Send a private message' }),
  route('GET', '/mail/inbox', 'mail_inbox', { summary: 'Your inbox with the unread count' }),
  route('GET', '/mail/sent', 'mail_sent', { summary: 'Mail you sent' }),
  route('GET', '/mail/{mail_id}', 'mail_read', { summary: 'Read a message (marks it read)' }),
  route('DELETE', '/mail/{mail_id}', 'mail_delete', { summary: 'Remove a message from your mailbox' }),
  route('GET', '/xp/{handle}', 'xp_ledger', { summary: 'Your XP ledger, level and badges' }),
];
