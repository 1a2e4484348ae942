// The calculators toolset: pure, deterministic, offline helpers (paid, $0.001 per call).
import type { Tool } from '../../src/registry/types.js';
import { ansiStrip } from './ansi-strip.js';
import { baseConvert } from './base-convert.js';
import { bitwiseTool } from './bitwise.js';
import { businessDays } from './business-days.js';
import { cardBrandTool } from './card-brand.js';
import { checksumValidate } from './checksum.js';
import { rateLimit } from './rate-limit.js';

export const calculatorTools: Tool[] = [rateLimit, ansiStrip, baseConvert, bitwiseTool, businessDays, cardBrandTool, checksumValidate];
