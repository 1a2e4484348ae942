// The page's links as Lighthouse's SEO category reads them (docs/decisions/commercial-seo.md, "Agreement with
// Lighthouse"): link text that says nothing of the target (Lighthouse's link-text lists, per language, and a few
// more in English), and anchors a crawler cannot follow (its crawlable-anchors rules, read from the markup).
import { parseHTML } from 'linkedom';

type El = NonNullable<ReturnType<ReturnType<typeof parseHTML>['document']['querySelector']>>;

/** Lighthouse 13's non-descriptive link texts (core/audits/seo/link-text.js), by language. */
const VAGUE: Record<string, Set<string>> = {
  en: new Set(['click here', 'click this', 'go', 'here', 'information', 'learn more', 'more', 'more info', 'more information', 'right here', 'read more', 'see more', 'start', 'this']),
  ja: new Set(['ここをクリック', 'こちらをクリック', 'リンク', '続きを読む', '続く', '全文表示']),
  es: new Set(['click aquí', 'click aqui', 'clicka aquí', 'clicka aqui', 'pincha aquí', 'pincha aqui', 'aquí', 'aqui', 'más', 'mas', 'más información', 'más informacion', 'mas información', 'mas informacion', 'este', 'enlace', 'este enlace', 'empezar']),
  pt: new Set(['clique aqui', 'ir', 'mais informação', 'mais informações', 'mais', 'veja mais']),
  ko: new Set(['여기', '여기를 클릭', '클릭', '링크', '자세히', '자세히 보기', '계속', '이동', '전체 보기']),
  sv: new Set(['här', 'klicka här', 'läs mer', 'mer', 'mer info', 'mer information']),
  de: new Set(['klicke hier', 'hier klicken', 'hier', 'mehr', 'siehe', 'dies', 'das', 'weiterlesen']),
  ta: new Set(['அடுத்த பக்கம்', 'மறுபக்கம்', 'முந்தைய பக்கம்', 'முன்பக்கம்', 'மேலும் அறிக', 'மேலும் தகவலுக்கு', 'மேலும் தரவுகளுக்கு', 'தயவுசெய்து இங்கே அழுத்தவும்', 'இங்கே கிளிக் செய்யவும்']),
  fa: new Set(['اطلاعات بیشتر', 'اطلاعات', 'این', 'اینجا بزنید', 'اینجا کلیک کنید', 'اینجا', 'برو', 'بیشتر بخوانید', 'بیشتر بدانید', 'بیشتر', 'شروع']),
};
/** English texts this audit also counts as vague (stricter than Lighthouse). */
const VAGUE_EN_MORE = new Set(['click', 'link', 'this link', 'details']);

/** Whether a link's text says nothing of where it goes, in the language the link is written in (all when unknown). */
export function isVagueText(text: string, lang: string | null): boolean {
  const t = text.trim().toLowerCase().replace(/[.!…]+$/, '');
  if (!t) return false;
  const primary = lang?.split('-')[0]?.toLowerCase();
  if (primary && VAGUE[primary]) return VAGUE[primary]!.has(t) || (primary === 'en' && VAGUE_EN_MORE.has(t));
  return Object.values(VAGUE).some((s) => s.has(t)) || VAGUE_EN_MORE.has(t);
}

/** Links whose text is worth judging: not nofollow, not javascript: or mailto:, not an anchor on this page. */
export function judgedLink(a: El, pageUrl: string): boolean {
  const rel = (a.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
  const raw = (a.getAttribute('href') ?? '').trim();
  if (!raw || rel.includes('nofollow') || /^(javascript|mailto):/i.test(raw)) return false;
  try {
    const u = new URL(raw, pageUrl);
    const here = new URL(pageUrl);
    u.hash = '';
    here.hash = '';
    return u.href !== here.href;
  } catch {
    return true;
  }
}

/** Attributes that make an anchor without href still a link (Lighthouse's hrefAssociatedAttributes). */
const HREF_ATTRS = ['target', 'download', 'ping', 'rel', 'hreflang', 'type', 'referrerpolicy'];

/**
 * Why a crawler cannot follow this anchor, or null when it can (Lighthouse's crawlable-anchors, read from the
 * markup: an event listener added by a script is not seen, an `on…` attribute is).
 */
export function uncrawlable(a: El, pageUrl: string): string | null {
  if ((a.getAttribute('role') ?? '').trim()) return null;
  const hasHref = a.hasAttribute('href');
  const raw = (a.getAttribute('href') ?? '').replace(/\s/g, '');
  if (raw.startsWith('mailto:')) return null;
  if (raw === '' && a.getAttribute('id')) return null;
  if (raw.startsWith('file:')) return 'a file: URL';
  if ((a.getAttribute('name') ?? '').trim()) return null;
  const names = (a.getAttributeNames?.() ?? []) as string[];
  if (!hasHref && !HREF_ATTRS.some((n) => a.hasAttribute(n))) return names.some((n) => /^on[a-z]+$/i.test(n)) ? 'no href, only a script handler' : null;
  if (!hasHref) return 'no href';
  if (/javascript:void(\(|)0(\)|)/.test(raw)) return 'a javascript:void(0) href';
  try {
    new URL(raw, pageUrl);
    return null;
  } catch {
    return 'an href that is not a URL';
  }
}
