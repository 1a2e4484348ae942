// The commercial group's routes, served by the second listener at {api_url} (GATEWAY_API_PORT).
import { route, type Route } from '../src/http/route.js';
import { commercialHomeHtml } from '../tools/onboarding/pages.js';

export const commercialRoutes: Route[] = [
  route('GET', '/', 'commercial_home', { html: commercialHomeHtml, summary: 'Home: what this group sells and where to start (JSON index, or HTML for browsers)' }),
  route('POST', '/signup', 'commercial_signup', { status: 201, summary: 'Open an account; its revenue key is shown once' }),
  route('GET', '/prices', 'commercial_prices', { summary: 'Every price as charged here, with the service and route; the review’s languages' }),
  route('GET', '/usage', 'commercial_usage', { summary: 'Balance, use this month, open orders, holds and charges (X-Revenue-Key)' }),
  route('POST', '/copy/orders', 'copy_order', { status: 202, summary: 'Order copy: ad, email_sequence or product_description' }),
  route('POST', '/orders', 'content_order', { status: 202, summary: 'Order content: blog, social_pack or newsletter' }),
  route('GET', '/orders', 'orders_list', { summary: 'Your orders, newest first' }),
  route('GET', '/orders/{order_id}', 'order_get', { summary: 'One order: status, price, payment, result' }),
  route('POST', '/orders/{order_id}/cancel', 'order_cancel', { summary: 'Cancel an order not made yet (released)' }),
  route('POST', '/orders/{order_id}/accept', 'order_accept', { summary: 'Accept a delivered dev task (captured)' }),
  route('POST', '/orders/{order_id}/revisions', 'order_revise', { summary: 'Send a delivered dev task back with notes' }),
  // A quote (quote_only) orders nothing: 200, not the 202 of an order.
  route('POST', '/dev/tasks', 'dev_task_create', {
    status: 202,
    statusOf: (r) => ((r as { ordered?: unknown }).ordered === false ? 200 : undefined),
    summary: 'Order a dev task (quote_only: the tier and price only, 200)',
  }),
  route('POST', '/extract', 'data_extract', { summary: 'Extract structured data from a text, HTML or a URL now (metered per 1K tokens)' }),
  route('POST', '/seo/audits', 'seo_audit', { status: 202, summary: 'Order an SEO audit of a page: quick $10 (deep: not available yet)' }),
  route('POST', '/review', 'code_review', { summary: 'Review code now: findings with line, severity, rule and fix ($25)' }),
  route('POST', '/v1/code-review', 'code_review_metered', { summary: 'Review code now with a focus (metered per 1K tokens)' }),
  route('POST', '/v1/content/generate', 'content_generate', { summary: 'Write a finished piece now (metered per 1K tokens)' }),
  // What POST /v1/chat/completions here accepts, for OpenAI clients (models.list()): the gateway's own list.
  route('GET', '/v1/models', 'chat_models', { summary: 'OpenAI-compatible model list (the models metered chat accepts)' }),
];
