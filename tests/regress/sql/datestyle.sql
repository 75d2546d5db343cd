--
-- DateStyle: the output format of date, timestamp and timestamptz, and
-- the field order of ambiguous date input; SHOW's canonical form.
--
SHOW DateStyle;
CREATE TABLE ds (d date, ts timestamp, tz timestamptz);
INSERT INTO ds VALUES ('2024-03-01', '2024-03-01 04:05:06.789', '2024-03-01 04:05:06.789+00'),
  ('0044-03-15 BC', '0044-03-15 12:00 BC', '0044-03-15 12:00+00 BC'),
  ('infinity', '-infinity', 'infinity');
SELECT d, ts, tz FROM ds ORDER BY d;
SET DateStyle = 'SQL';
SHOW DateStyle;
SELECT d, ts, tz FROM ds ORDER BY d;
SET DateStyle = 'SQL, DMY';
SHOW DateStyle;
SELECT d, ts, tz FROM ds ORDER BY d;
SET DateStyle = 'Postgres';
SHOW DateStyle;
SELECT d, ts, tz FROM ds ORDER BY d;
SET DateStyle = 'Postgres, MDY';
SELECT d, ts, tz FROM ds ORDER BY d;
SET DateStyle = 'German';
SHOW DateStyle;
SELECT d, ts, tz FROM ds ORDER BY d;
SET DateStyle = 'ISO, YMD';
SHOW DateStyle;
SELECT d, ts, tz FROM ds ORDER BY d;
-- zone names in the non-ISO styles
SET TimeZone = 'Europe/Berlin';
SET DateStyle = 'SQL, MDY';
SELECT '2024-07-01 12:00'::timestamptz, '2024-01-01 12:00'::timestamptz;
SET DateStyle = 'Postgres, MDY';
SELECT '2024-07-01 12:00'::timestamptz, '2024-01-01 12:00'::timestamptz;
SET DateStyle = 'German';
SELECT '2024-07-01 12:00'::timestamptz;
SET TIME ZONE 5.5;
SET DateStyle = 'Postgres';
SELECT '2024-07-01 12:00'::timestamptz;
SET DateStyle = 'SQL';
SELECT '2024-07-01 12:00'::timestamptz;
RESET TimeZone;
-- ambiguous input follows the field order
SET DateStyle = 'ISO, MDY';
SELECT '01/02/03'::date, '1/2/2003'::date, '01-02-03'::date, '2003-01-02'::date;
SELECT '1 feb 03'::date, 'feb 1 03'::date, '03 feb 1'::date;
SET DateStyle = 'ISO, DMY';
SELECT '01/02/03'::date, '1/2/2003'::date, '01-02-03'::date, '2003-01-02'::date;
SELECT '1 feb 03'::date, 'feb 1 03'::date;
SELECT '13/01/2024'::date;
SELECT '01/13/2024'::date;
SET DateStyle = 'ISO, YMD';
SELECT '01/02/03'::date, '03-feb-01'::date, '2003-01-02'::date;
SELECT '1/2/2003'::date;
SET DateStyle = 'ISO, MDY';
SELECT '13/01/2024'::date;
SELECT '01/02/03 04:05'::timestamp, '01/02/03 04:05'::timestamptz;
-- keywords and their combinations
SET DateStyle = 'euro';
SHOW DateStyle;
SET DateStyle = 'us, iso';
SHOW DateStyle;
SET DateStyle = iso, european;
SHOW DateStyle;
SET DateStyle = 'german, mdy';
SHOW DateStyle;
SET DateStyle = 'ymd';
SHOW DateStyle;
SET DateStyle = 'NonEuropean';
SHOW DateStyle;
SET DateStyle = 'sql, default';
SHOW DateStyle;
SET DateStyle = 'default';
SHOW DateStyle;
SET DateStyle = 'German';
SET DateStyle = 'SQL';
SHOW DateStyle;
SET DateStyle = '';
SHOW DateStyle;
SET DateStyle = '"ISO", "DMY"';
SHOW DateStyle;
-- errors
SET DateStyle = 'iso, sql';
SET DateStyle = 'dmy, mdy';
SET DateStyle = 'foo';
SET DateStyle = 'iso,,mdy';
SET DateStyle = 'iso mdy';
SHOW DateStyle;
-- transactions
RESET DateStyle;
BEGIN;
SET DateStyle = 'German';
SELECT '2024-03-01'::date;
ROLLBACK;
SELECT '2024-03-01'::date;
BEGIN;
SET LOCAL DateStyle = 'SQL, DMY';
SELECT '2024-03-01'::date;
COMMIT;
SHOW DateStyle;
-- a SET inside a block after SET LOCAL keeps what the local one set
BEGIN;
SET LOCAL DateStyle = 'SQL, DMY';
SET DateStyle = 'Postgres';
SHOW DateStyle;
COMMIT;
SHOW DateStyle;
RESET DateStyle;
-- text casts use the style; date output is not folded at plan time
SET DateStyle = 'SQL, DMY';
SELECT '2024-03-01'::date::text, '2024-03-01 10:00'::timestamp::text;
EXPLAIN (COSTS OFF) SELECT '2024-03-01'::date::text;
DROP TABLE ds;
RESET DateStyle;
