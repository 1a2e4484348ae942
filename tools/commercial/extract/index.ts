// Data extraction (issue 24): POST /extract on the commercial listener. tool.ts is the tool (the order, run in its
// request); service.ts the order's work; fetch.ts the URL source; structured.ts, entities.ts and map.ts the engines
// without a model (engine.ts, run on thread.ts through off-loop.ts); model.ts the model's; schema.ts the caller's
// fields; limits.ts what it may take and cost. The catalog imports service.ts itself (tool.ts imports the work).
export { dataExtract } from './tool.js';
