// The optional `handle` of owner-only social reads: it must be the caller's own (the pipeline answers 403
// otherwise), so a client can name whose mailbox or feed it means without ever reaching another's.
import { z } from 'zod';

export const SelfHandle = z.string().trim().toLowerCase().max(32).optional().describe('Your own handle (optional; naming another handle answers 403).');
