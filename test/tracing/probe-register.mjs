// `node --import` this to record which @opentelemetry packages a process loads (probe-hooks.mjs).
import { register } from 'node:module';

register('./probe-hooks.mjs', import.meta.url);
