// Code review (issue 24): POST /review ($25) and POST /v1/code-review (metered) on the commercial listener.
// tool.ts is the tools (orders run in their request); service.ts the orders' work; engine.ts the review:
// eslint.ts (JavaScript, TypeScript), tree-sitter.ts with rules.ts (other languages), secrets.ts (every language).
export { codeReview, codeReviewMetered } from './tool.js';
