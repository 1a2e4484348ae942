-- PostgreSQL's 040 makes its memory index stem words with the Porter algorithm, as this FTS5 index always has
-- (porter tokenizer, diacritics removed): nothing changes here. The file keeps the two stores' migrations in step.
SELECT 1;
