// MCP resources: each one is read through a registry tool.
import type { ResourceDef, ResourceListerDef, ResourceTemplateDef } from '../src/registry/resource-defs.js';
import { appResources } from './apps.js';
import { catalogResources, catalogResourceTemplates } from './catalog.js';

export const resources: ResourceDef[] = [
  {
    uri: 'gateway://info',
    name: 'gateway-info',
    title: 'About this gateway',
    description: 'What this gateway offers: version, toolsets, endpoints.',
    mimeType: 'application/json',
    tool: 'gateway_info',
  },
  ...catalogResources,
  ...appResources,
];

/** Resources that depend on the caller (its memory entries). */
export const resourceListers: ResourceListerDef[] = [{ tool: 'memory_resources' }];

export const resourceTemplates: ResourceTemplateDef[] = [
  {
    uriTemplate: 'memory://{handle}/{namespace}/{key}',
    name: 'memory-entry',
    title: 'Memory entry',
    description: 'An entry of your memory, or one shared with you or public.',
    mimeType: 'application/json',
    tool: 'memory_get',
    ownerVariable: 'handle',
  },
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
  ...catalogResourceTemplates,
];
