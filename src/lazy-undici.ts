// undici takes about a tenth of a second to load, most of it for parts the gateway never uses: it loads with
// the first outbound request (egress, chat proxy) instead of at start-up.
import type * as Undici from 'undici';

let loading: Promise<typeof Undici> | undefined;

export const undici = (): Promise<typeof Undici> => (loading ??= import('undici'));
