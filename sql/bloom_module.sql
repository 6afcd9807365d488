-- The module's magic block.  On PostgreSQL 18 bloomtype.so names itself
-- and its version (PG_MODULE_MAGIC_EXT), which must be the extension's
-- default version; pg_get_loaded_modules() does not exist before 18, so
-- 15 answers with an ERROR (expected/bloom_module_1.out is 18's output).
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS bloomtype;
RESET client_min_messages;
-- load the library
SELECT bloom_contains(bloom_add(bloom_empty(10), 1), 1) AS loaded;
SELECT module_name,
       version = (SELECT default_version FROM pg_available_extensions WHERE name = 'bloomtype')
         AS version_is_the_control_files,
       version ~ '^[0-9]+\.[0-9]+$' AS looks_like_a_version
  FROM pg_get_loaded_modules()
 WHERE file_name LIKE 'bloomtype%';
