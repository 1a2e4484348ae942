-- A /start visit is credited to its client's registration within the referral window (7 days); older ones are
-- deleted by the retention sweep (src/store/retention.ts), which reads them through this index. Each new client
-- address that opened /start?via= left a row for ever.
CREATE INDEX start_visits_created ON start_visits (created_at);
