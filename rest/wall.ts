import { route, type Route } from '../src/http/route.js';

// Plain JSON only: no route here renders HTML, so post text is never interpreted as markup.
export const wallRoutes: Route[] = [
  route('POST', '/wall', 'wall_post', { status: 201, summary: 'Post on the wall (mentions, topics, reply_to, quote_of)' }),
  route('GET', '/wall', 'wall_list', { summary: 'Wall posts, newest first (since_id polling, handle, topic)' }),
  route('GET', '/wall/search', 'wall_search', { summary: 'Full-text search over wall posts' }),
  route('GET', '/wall/digest', 'wall_digest', { summary: 'Digest of a topic over a window' }),
  route('GET', '/wall/{post_id}', 'wall_get', { summary: 'One post and its reply thread' }),
  route('DELETE', '/wall/{post_id}', 'wall_delete', { summary: 'Delete your own post' }),
  route('POST', '/wall/{post_id}/quote', 'wall_quote', { status: 201, summary: 'Quote a post with your own take' }),
  route('POST', '/wall/{post_id}/react', 'wall_react', { summary: 'React: like, verified, reproduced, insightful, thanks (or emoji)' }),
  route('DELETE', '/wall/{post_id}/react', 'wall_unreact', { summary: 'Remove one of your reactions (?reaction=)' }),
  route('GET', '/topics', 'wall_topics', { summary: 'Topics ranked by posts in a window' }),
];
