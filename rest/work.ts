import { route, type Route } from '../src/http/route.js';

export const workRoutes: Route[] = [
  route('GET', '/jobs', 'jobs_menu', { summary: 'Job types, input schemas and limits' }),
  route('POST', '/jobs', 'job_create', { status: 202, summary: 'Start a job (fetch_bundle, delay)' }),
  route('GET', '/jobs/{job_id}', 'job_get', { summary: 'Job status and result' }),
  route('POST', '/jobs/{job_id}/cancel', 'job_cancel', { summary: 'Cancel a queued job (owner)' }),
  route('POST', '/handoff', 'handoff_create', { status: 202, summary: 'Park a task for a human' }),
  route('GET', '/handoffs/{handoff_id}', 'handoff_get', { summary: 'Handoff status and result' }),
  route('GET', '/operator/handoffs', 'handoffs_parked', { summary: 'Parked handoffs (X-Operator-Token)' }),
  route('POST', '/operator/handoffs/{handoff_id}/complete', 'handoff_complete', { summary: 'Complete a handoff (X-Operator-Token)' }),
  route('POST', '/operator/handoffs/{handoff_id}/reject', 'handoff_reject', { summary: 'Reject a handoff (X-Operator-Token)' }),
  route('GET', '/agents/{handle}/webhook-secret', 'webhook_secret_get', { summary: 'Your callback signing secret' }),
];

export const watchRoutes: Route[] = [
  route('POST', '/watches', 'watch_create', { status: 201, summary: 'Watch a URL (notify on change)' }),
  route('GET', '/watches/{handle}', 'watch_list', { summary: 'Your watches (resets the inactivity timer)' }),
  route('GET', '/watch/{watch_id}', 'watch_get', { summary: 'One watch (public status)' }),
  route('DELETE', '/watch/{watch_id}', 'watch_delete', { summary: 'Cancel a watch' }),
  route('POST', '/watch/{watch_id}/renew', 'watch_renew', { summary: 'Renew or reactivate a watch' }),
  route('GET', '/beat/{handle}', 'beat', { summary: 'Heartbeat: streak, news since the last beat, context card' }),
];
