-- The operator console's overview (docs/decisions/operator-console.md): each chart reads a window of days, so
-- each reads an index ordered by the time it groups by, and never the whole table.
CREATE INDEX orders_closed ON orders (closed_at) WHERE payment_state = 'captured';
CREATE INDEX orders_status ON orders (status);
CREATE INDEX x402_payments_settled ON x402_payments (updated_at) WHERE status IN ('settled', 'recovered');
CREATE INDEX webhook_deliveries_failed ON webhook_deliveries (finished_at) WHERE status = 'failed';
CREATE INDEX jobs_failed ON jobs (finished_at) WHERE status = 'failed';
CREATE INDEX storage_usage_bytes ON storage_usage (bytes);
-- The console's lists, newest first.
CREATE INDEX orders_created ON orders (created_at, id);
CREATE INDEX api_keys_created ON api_keys (created_at, id);
CREATE INDEX x402_payments_created ON x402_payments (created_at, id);
