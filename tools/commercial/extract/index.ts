// Data extraction (issue 24): POST /extract on the commercial listener. tool.ts is the tool (the order, run in its
// request); service.ts the order's work; fetch.ts the URL source; schema.ts the caller's fields (nested objects and
// lists); limits.ts what it may take and cost. Without a model (engine.ts, run on thread.ts through off-loop.ts):
// structured.ts reads a page, its items by jsonld.ts, microdata.ts and rdfa.ts (things.ts their shape, dom.ts the
// DOM they read); records.ts fills fields from the item that names most of them (identity.ts: the same thing by
// identifier), map.ts from everything else (names.ts the names, coerce.ts the values, entities.ts the text's
// entities and patterns). model.ts is the model's. The catalog imports service.ts itself (tool.ts imports the work).
export { dataExtract } from './tool.js';
