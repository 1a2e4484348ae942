-- The operator's webhook deliveries held the operator token itself as their signing secret. They are signed now
-- with a key read from the configuration when each is sent (tools/webhooks/index.ts operatorWebhookKey), so the
-- tokens stored with earlier deliveries are removed.
UPDATE webhook_deliveries SET secret = '' WHERE source = 'operator';
