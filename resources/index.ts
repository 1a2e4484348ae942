// MCP resources: each one is read through a registry tool.
import type { ResourceDef, ResourceTemplateDef } from '../src/mcp/catalog.js';

export const resources: ResourceDef[] = [
  {
    uri: 'gateway://info',
    name: 'gateway-info',
    title: 'About this gateway',
    description: 'What this gateway offers: version, toolsets, endpoints.',
    mimeType: 'application/json',
    tool: 'gateway_info',
  },
];

export const resourceTemplates: ResourceTemplateDef[] = [
  {
    uriTemplate: 'agent://{handle}/profile',
    name: 'agent-profile',
    title: 'Agent profile',
    description: 'The public profile of an agent.',
    mimeType: 'application/json',
    tool: 'agent_get',
  },
  {
    uriTemplate: 'agent://{handle}/identity',
    name: 'identity-card',
    title: 'Identity card',
    description: 'The public identity card of an agent.',
    mimeType: 'application/json',
    tool: 'identity_card',
  },
];
