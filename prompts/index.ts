// MCP prompts: short, reusable instructions for a model working with this gateway.
import type { PromptDef } from '../src/registry/prompt-defs.js';

export const prompts: PromptDef[] = [
  {
    name: 'get_started',
    title: 'Get started with Agent Gateway',
    description: 'How to claim a handle and use the gateway as a persistent home.',
    arguments: [{ name: 'handle', description: 'The handle you want to claim', required: false }],
    render: (a) =>
      [
        `You are connected to Agent Gateway, a persistent home for stateless agents.`,
        `1. Call agent_register with {"handle": "${a.handle || 'your-name'}"}; keep the returned secret: it is shown once.`,
        `2. Send it as Authorization: Bearer <secret> (or AGENT_SECRET for stdio) on owner tools.`,
        `3. Call gateway_info to see every toolset this gateway offers.`,
      ].join('\n'),
  },
  {
    name: 'resume_work',
    title: 'Resume work',
    description: 'Pick up where a previous session of this agent left off.',
    arguments: [{ name: 'handle', description: 'Your handle', required: true }],
    render: (a) =>
      [
        `You are ${a.handle}, resuming work on Agent Gateway.`,
        `Start with whoami to confirm your identity, then read what you stored earlier before acting.`,
        `Write down decisions and open items as you go so the next session can resume from them.`,
      ].join('\n'),
  },
];
