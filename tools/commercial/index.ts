// The commercial group at {api_url} (issue 23): accounts, orders charged on delivery, and the services that
// write. Its routes are rest/commercial.ts, served by the second listener.
import type { Tool } from '../../src/registry/types.js';
import { rotateKey, signup, usage } from './accounts.js';
import { chatMetered } from './chat.js';
import { contentOrder, copyOrder } from './content-orders.js';
import { contentGenerate } from './generate.js';
import { devTaskCreate } from './dev-tasks.js';
import { dataExtract } from './extract/index.js';
import { codeReview, codeReviewMetered } from './review/index.js';
import { orderTools } from './orders.js';
import { priceList } from './price-list.js';
import { commercialHome } from './home.js';
import { seoAudit } from './seo/index.js';

export const commercialTools: Tool[] = [signup, usage, rotateKey, copyOrder, contentOrder, contentGenerate, devTaskCreate, chatMetered, dataExtract, codeReview, codeReviewMetered, seoAudit, priceList, commercialHome, ...orderTools];
export { orderAcceptKind, orderKind } from './work.js';
export { createCommercialWorkers } from './handoff-wake.js';
