// The layers and their dependency rules (docs/architecture.md, "Layers and dependency rules" says the same in
// prose). test/architecture.test.ts runs them in `npm test` over the whole tree, type-only imports included;
// `npx depcruise src tools rest resources prompts test bench scripts` runs them by hand. TypeScript 7 has no
// JavaScript compiler API, which is how dependency-cruiser reads TypeScript by default, so it parses with swc.

/** The composition root: builds everything and wires it together. */
const ROOT = '^src/(app|main)\\.ts$';
/** Adapters: the HTTP front and REST route tables, MCP, A2A, the OpenAI-compatible chat endpoint. */
const ADAPTERS = '^(src/(http|mcp|a2a|openai)/|rest/)';
/** Capabilities: tools, MCP resources and prompts. */
const CAPABILITIES = '^(tools|resources|prompts)/';
/** Presentation an adapter may borrow from a capability: rest/onboarding.ts renders the onboarding pages with it. */
const PRESENTATION = '^tools/onboarding/pages\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycle, type-only imports included: move the shared type to the module that owns it.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-not-to-outer-layers',
      severity: 'error',
      comment: 'Core (src/ but the adapters and the composition root) imports neither capabilities nor adapters.',
      from: { path: '^src/', pathNot: [ROOT, ADAPTERS] },
      to: { path: [CAPABILITIES, ADAPTERS] },
    },
    {
      name: 'capability-not-to-adapter',
      severity: 'error',
      comment: 'A capability never imports an adapter, not even a type: it sees a request as its input and ctx.',
      from: { path: CAPABILITIES },
      to: { path: ADAPTERS },
    },
    {
      name: 'adapter-not-to-capability',
      severity: 'error',
      comment: 'Adapters reach tools by name through the registry; they import a capability only for presentation.',
      from: { path: ADAPTERS },
      to: { path: CAPABILITIES, pathNot: PRESENTATION },
    },
    {
      name: 'adapters-apart',
      severity: 'error',
      comment: 'MCP, A2A and the chat endpoint import neither each other nor rest/; they share only the HTTP front (src/http).',
      from: { path: '^src/(mcp|a2a|openai)/' },
      to: { path: '^(src/(mcp|a2a|openai)/|rest/)', pathNot: '^src/$1/' },
    },
    {
      name: 'http-front-not-to-other-adapters',
      severity: 'error',
      comment: 'The HTTP front and the REST route tables do not import MCP, A2A or the chat endpoint (the composition root mounts them).',
      from: { path: '^(src/http/|rest/)' },
      to: { path: '^src/(mcp|a2a|openai)/' },
    },
    {
      name: 'root-on-top',
      severity: 'error',
      comment: 'Only the composition root (main.ts loads app.ts) and tests import the composition root.',
      from: { pathNot: [ROOT, '^(test|bench)/'] },
      to: { path: ROOT },
    },
    {
      name: 'not-to-test',
      severity: 'error',
      comment: 'Nothing outside test/ and bench/ imports from test/.',
      from: { pathNot: '^(test|bench)/' },
      to: { path: '^test/' },
    },
  ],
  options: {
    moduleSystems: ['es6'],
    combinedDependencies: false,
    parser: 'swc',
    // `import type` edges count: a type-only cycle is a cycle of the design all the same.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    // test/fixtures holds corpora of third-party code (some not even valid JavaScript): data, not modules.
    exclude: { path: '^(node_modules|dist|\\.node-versions|test/fixtures)/' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
