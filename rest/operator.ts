import { route, type Route } from '../src/http/route.js';

// The console's reads and actions as the operator API (X-Operator-Token); the console's forms call the same tools.
export const operatorRoutes: Route[] = [
  route('GET', '/operator/overview', 'operator_overview', { summary: 'Business overview: per-day aggregates, orders by state, top storage (X-Operator-Token)' }),
  route('GET', '/operator/agents', 'operator_agents', { summary: 'Agents, newest first (X-Operator-Token)' }),
  route('DELETE', '/operator/agents/{handle}', 'operator_agent_delete', { summary: 'Delete an agent (X-Operator-Token)' }),
  route('POST', '/operator/agents/{handle}/suspend', 'operator_agent_suspend', { summary: 'Suspend an agent: its credentials are refused (X-Operator-Token)' }),
  route('POST', '/operator/agents/{handle}/unsuspend', 'operator_agent_unsuspend', { summary: 'Lift an agent’s suspension (X-Operator-Token)' }),
  route('GET', '/operator/orders', 'operator_orders', { summary: 'Every account’s orders, newest first (X-Operator-Token)' }),
  route('POST', '/operator/orders/{order_id}/cancel', 'operator_order_cancel', { summary: 'Cancel an order not made yet (X-Operator-Token)' }),
  route('POST', '/operator/orders/{order_id}/refund', 'operator_order_refund', { summary: 'Refund a captured order to the prepaid balance (X-Operator-Token)' }),
  route('GET', '/operator/keys', 'operator_keys', { summary: 'API keys, newest first (X-Operator-Token)' }),
  route('POST', '/operator/keys/{key_id}/revoke', 'operator_key_revoke', { summary: 'Revoke an API key (X-Operator-Token)' }),
  route('GET', '/operator/x402', 'operator_x402_settlements', { summary: 'The x402 wallet’s settlements (X-Operator-Token)' }),
];
