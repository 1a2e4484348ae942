// robots.txt read line by line as Lighthouse's robots-txt audit reads it (core/audits/seo/robots-txt.js): each line
// a comment, blank, or `directive: value` with a directive crawlers know; Allow and Disallow patterns empty or
// starting with / or *, `$` only at the end; a Sitemap an absolute http(s) or ftp URL; Allow and Disallow only
// after a User-agent. robots-parser skips what it does not understand, so a typo silently changes the rules.

const KNOWN = new Set(['user-agent', 'disallow', 'allow', 'sitemap', 'crawl-delay', 'clean-param', 'host', 'request-rate', 'visit-time', 'noindex', 'content-signal']);
const SITEMAP_PROTOCOLS = new Set(['https:', 'http:', 'ftp:']);

export interface RobotsError {
  line: number;
  text: string;
  message: string;
}

function lineProblem(directive: string, value: string): string | null {
  if (!KNOWN.has(directive)) return 'unknown directive';
  if (directive === 'sitemap') {
    if (!URL.canParse(value)) return 'the sitemap is not an absolute URL';
    if (!SITEMAP_PROTOCOLS.has(new URL(value).protocol)) return 'the sitemap URL is not http(s) or ftp';
  }
  if (directive === 'user-agent' && !value) return 'no user agent named';
  if (directive === 'allow' || directive === 'disallow') {
    if (value !== '' && value[0] !== '/' && value[0] !== '*') return 'the pattern should be empty or start with "/" or "*"';
    const dollar = value.indexOf('$');
    if (dollar !== -1 && dollar !== value.length - 1) return '"$" should only end the pattern';
  }
  return null;
}

/** The lines of a robots.txt that crawlers may misread, with why. */
export function validateRobotsTxt(content: string): RobotsError[] {
  const errors: RobotsError[] = [];
  let inGroup = false;
  content.split(/\r\n|\r|\n/).forEach((raw, i) => {
    const line = raw.replace(/#.*$/, '').trim();
    if (!line) return;
    const colon = line.indexOf(':');
    if (colon === -1) return void errors.push({ line: i + 1, text: raw, message: 'not a "directive: value" line' });
    const directive = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    const problem = lineProblem(directive, value);
    if (problem) return void errors.push({ line: i + 1, text: raw, message: problem });
    if (directive === 'user-agent') inGroup = true;
    else if (!inGroup && (directive === 'allow' || directive === 'disallow')) errors.push({ line: i + 1, text: raw, message: 'no user agent named before it' });
  });
  return errors;
}
