-- RESET, RESET ALL and SET ... TO DEFAULT return to the session's own
-- defaults: the built-in ones, with what the client sent when it
-- connected.  reset_pg15.env sets PGDATESTYLE, PGTZ and PGOPTIONS, which
-- libpq sends in the startup packet; psql sends application_name.
-- expected/reset_pg15.out is PostgreSQL 15's output
-- (tests/server/regen_expected.sh).
-- the session's defaults come from the startup packet
SHOW DateStyle;
SHOW TimeZone;
SHOW work_mem;
SHOW IntervalStyle;
SHOW extra_float_digits;
SHOW application_name;
SELECT timestamptz '2024-03-05 12:00:00+00' AS ts, interval '1 day 2 hours' AS iv;
-- RESET and SET ... TO DEFAULT go back to them
SET DateStyle = 'SQL';
SHOW DateStyle;
RESET DateStyle;
SHOW DateStyle;
SET TimeZone = 'Asia/Tokyo';
RESET TimeZone;
SHOW TimeZone;
SET work_mem = '1MB';
SET work_mem TO DEFAULT;
SHOW work_mem;
SET TIME ZONE 'UTC';
SET TIME ZONE DEFAULT;
SHOW TimeZone;
SET TIME ZONE LOCAL;
SHOW TimeZone;
-- a setting the client did not send goes back to the built-in default
SET lock_timeout = '5s';
RESET lock_timeout;
SHOW lock_timeout;
-- RESET ALL
SET DateStyle = 'Postgres, YMD';
SET TimeZone = 'Europe/Paris';
SET work_mem = '2MB';
SET IntervalStyle = 'postgres_verbose';
SET extra_float_digits = 0;
SET application_name = 'other';
RESET ALL;
SHOW DateStyle;
SHOW TimeZone;
SHOW work_mem;
SHOW IntervalStyle;
SHOW extra_float_digits;
SHOW application_name;
SELECT timestamptz '2024-03-05 12:00:00+00' AS ts, interval '1 day 2 hours' AS iv;
-- in transactions: RESET is undone by ROLLBACK, kept by COMMIT
SET DateStyle = 'ISO, YMD';
BEGIN;
RESET ALL;
SHOW DateStyle;
ROLLBACK;
SHOW DateStyle;
BEGIN;
RESET DateStyle;
COMMIT;
SHOW DateStyle;
SET TimeZone = 'UTC';
BEGIN;
SET LOCAL TimeZone TO DEFAULT;
SHOW TimeZone;
COMMIT;
SHOW TimeZone;
BEGIN;
SET TimeZone = 'Asia/Tokyo';
RESET TimeZone;
SET LOCAL TimeZone = 'UTC';
SHOW TimeZone;
COMMIT;
SHOW TimeZone;
BEGIN;
SET DateStyle = 'SQL, MDY';
RESET ALL;
SHOW DateStyle;
SELECT 1/0;
ROLLBACK;
SHOW DateStyle;
RESET ALL;
SHOW DateStyle;
SHOW TimeZone;
