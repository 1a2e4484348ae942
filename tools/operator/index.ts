// The operator's tools beyond credits and handoffs: the console's reads and its actions (X-Operator-Token).
import { operatorActionTools } from './actions.js';
import { operatorReadTools } from './reads.js';

export const operatorTools = [...operatorReadTools, ...operatorActionTools];
