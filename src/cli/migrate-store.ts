// `agent-gateway migrate-store --from <sqlite data dir> --to <postgres url>`: copies a SQLite deployment into an
// empty PostgreSQL database and verifies it (copy-store.ts). Needs nothing of the gateway's configuration. A short
// summary goes to stderr, a JSON report (tables, row counts, checksums, milliseconds; never a value) to stdout.
// Exit codes: 0 copied and verified, 1 refused or failed (the message says why), 2 bad arguments.
import { parseArgs } from 'node:util';
import { databaseFile } from '../paths.js';
import { copyStore, CopyStoreError } from '../store/copy-store.js';

export const MIGRATE_STORE_USAGE = `Usage: agent-gateway migrate-store --from <sqlite data dir> --to <postgres url>

Copies every table of <data dir>/gateway.db (it may be in use: the copy is one consistent snapshot) into the
PostgreSQL database at <postgres url>, which must be empty (it is migrated first), then checks each table's row
count and checksum. Prints a summary to stderr and a JSON report to stdout.`;

function usage(message: string): never {
  process.stderr.write(`${message}\n\n${MIGRATE_STORE_USAGE}\n`);
  process.exit(2);
}

export async function migrateStore(argv: string[]): Promise<void> {
  let values: { from?: string; to?: string; help?: boolean };
  try {
    ({ values } = parseArgs({ args: argv, options: { from: { type: 'string' }, to: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true }));
  } catch (err) {
    usage((err as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${MIGRATE_STORE_USAGE}\n`);
    return;
  }
  if (!values.from) usage('migrate-store: --from <sqlite data dir> is required');
  if (!values.to) usage('migrate-store: --to <postgres url> is required');
  if (!/^postgres(ql)?:\/\//.test(values.to)) usage('migrate-store: --to must be a postgres:// or postgresql:// URL');
  try {
    const report = await copyStore({ sqliteFile: databaseFile(values.from), pgUrl: values.to });
    const nonEmpty = report.tables.filter((t) => t.rows > 0).length;
    process.stderr.write(
      `migrate-store: copied ${report.rows} rows of ${report.tables.length} tables (${nonEmpty} non-empty) from ${report.from} to ${report.to} in ${report.ms} ms; ` +
        'row counts and checksums match\n',
    );
    process.stdout.write(`${JSON.stringify(report)}\n`);
  } catch (err) {
    const message = err instanceof CopyStoreError ? err.message : `unexpected error: ${(err as Error).message}`;
    process.stderr.write(`migrate-store: ${message}\nNo rows were written to PostgreSQL.\n`);
    process.exit(1);
  }
}
