// The toolbelt: free, keyless, instant utilities agents reach for constantly (ids, hashes, encodings, JSON,
// time, text, regex, JWT). Pure functions of their input; nothing is stored.
import type { Tool } from '../../src/registry/types.js';
import { base64, urlEncode } from './encoding.js';
import { hash, hmac } from './hashing.js';
import { randomString, uuid } from './ids.js';
import { jsonFormat, jsonValidate } from './json.js';
import { jwtDecode } from './jwt.js';
import { regexTest } from './regex.js';
import { textStats } from './text-stats.js';
import { slugifyTool } from './text.js';
import { timestampConvert } from './time.js';

export const toolbeltTools: Tool[] = [
  uuid,
  randomString,
  hash,
  hmac,
  base64,
  urlEncode,
  jsonFormat,
  jsonValidate,
  timestampConvert,
  slugifyTool,
  textStats,
  regexTest,
  jwtDecode,
];

/** Names for REST routing (GET /toolbelt, GET|POST /toolbelt/{name}); a test keeps it equal to toolbeltTools. */
export const TOOLBELT_NAMES: string[] = [
  'uuid',
  'random_string',
  'hash',
  'hmac',
  'base64',
  'url_encode',
  'json_format',
  'json_validate',
  'timestamp_convert',
  'slugify',
  'text_stats',
  'regex_test',
  'jwt_decode',
];
