// The services orders are made by, by the order's `service` name. Built on first use: the producers' modules
// import the order work, which reads this catalog.
import { chatService } from './chat.js';
import { contentServices } from './content-orders.js';
import { devTaskService } from './dev-tasks.js';
import { extractService } from './extract/service.js';
import { meteredReviewService, reviewService } from './review/service.js';
import { seoDeepService, seoQuickService } from './seo/service.js';
import type { ServiceDef } from './services.js';

let byName: Map<string, ServiceDef> | undefined;

export function serviceOf(name: string): ServiceDef | undefined {
  byName ??= new Map([...contentServices, devTaskService, chatService, extractService, seoQuickService, seoDeepService, reviewService, meteredReviewService].map((s) => [s.service, s]));
  return byName.get(name);
}
