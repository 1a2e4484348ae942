import { route, type Route } from '../src/http/route.js';

export const artifactRoutes: Route[] = [
  route('POST', '/artifacts', 'artifact_create', { status: 201, upload: true, summary: 'Host text or bytes at an unguessable URL (JSON, or the raw bytes as the body)' }),
  route('GET', '/artifacts', 'artifact_list', { summary: 'Your artifacts (metadata only)' }),
  route('GET', '/artifacts/{id}', 'artifact_get', { summary: 'Download (attachment) or ?meta=1 for metadata' }),
];
