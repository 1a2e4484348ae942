import { route, type Route } from '../src/http/route.js';

export const entitlementRoutes: Route[] = [
  route('POST', '/v1/entitlements/appstore', 'entitlement_appstore', {
    input: 'body',
    summary: 'Redeem an App Store signed transaction for a tier (API key) or credits',
  }),
  route('GET', '/agents/{handle}/entitlements', 'entitlements_list', { summary: 'Store purchases redeemed by the agent (owner)' }),
];
