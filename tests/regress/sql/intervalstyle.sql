--
-- IntervalStyle: the four output formats of interval.
--
SHOW IntervalStyle;
CREATE TABLE iv (id int, i interval);
INSERT INTO iv VALUES
  (1, '1 year 2 months 3 days 04:05:06.789'),
  (2, '-1 year -2 months -3 days -04:05:06.789'),
  (3, '1 year -2 months 3 days -04:05:06'),
  (4, '0'),
  (5, '1 day'),
  (6, '-1 day'),
  (7, '04:05:06'),
  (8, '-04:05:06'),
  (9, '1 year 2 mons'),
  (10, '-1 year -2 mons'),
  (11, '3 days 04:05:06'),
  (12, '-3 days -04:05:06'),
  (13, '0.5 seconds'),
  (14, '-0.5 seconds'),
  (15, '1 second'),
  (16, '-1 day +02:03:04'),
  (17, '1 day -02:03:04'),
  (18, '100 hours'),
  (19, '-1 mon 2 days'),
  (20, '2147483647 days 2562047788 hours');
SELECT id, i FROM iv ORDER BY id;
SET IntervalStyle = postgres_verbose;
SHOW IntervalStyle;
SELECT id, i FROM iv ORDER BY id;
SET IntervalStyle = sql_standard;
SHOW IntervalStyle;
SELECT id, i FROM iv ORDER BY id;
SET IntervalStyle = iso_8601;
SHOW IntervalStyle;
SELECT id, i FROM iv ORDER BY id;
-- what each style prints reads back as the same interval
SET IntervalStyle = postgres_verbose;
SELECT count(*) FROM iv WHERE i::text::interval <> i;
SET IntervalStyle = iso_8601;
SELECT count(*) FROM iv WHERE i::text::interval <> i;
SET IntervalStyle = postgres;
SELECT count(*) FROM iv WHERE i::text::interval <> i;
-- sql_standard input: a leading '-' applies to every field unless a
-- later field has a sign of its own
SET IntervalStyle = sql_standard;
SELECT interval '-1 2:03:04', interval '-1 +2:03:04', interval '-1-2',
       interval '-1-2 3', interval '-1-2 +3 4:05', interval '-1 day 2 hours';
SELECT interval '-1 day 2 hours 3 minutes', interval '-2:03',
       interval '-1 -2:03', interval '-1-2 3 4:05:06';
SELECT interval '-1 2:00:00 ago', interval '-1 day ago', interval '-1.5 days',
       interval '-1 2' DAY TO HOUR, interval '-1 years 2 months';
SET IntervalStyle = postgres;
SELECT interval '-1 2:03:04', interval '-1 +2:03:04', interval '-1-2 3',
       interval '-1 day 2 hours', interval '-1 2' DAY TO HOUR,
       interval '1 2' DAY TO HOUR, interval '-1 -2' DAY TO HOUR;
-- case-insensitive names, errors
SET IntervalStyle = 'SQL_STANDARD';
SHOW IntervalStyle;
SET IntervalStyle = 'foo';
SET IntervalStyle TO DEFAULT;
SHOW IntervalStyle;
-- interval results of functions and operators use the style too
SET IntervalStyle = sql_standard;
SELECT '2024-03-01'::timestamp - '2024-01-01 12:00'::timestamp,
       age('2024-03-01'::timestamp, '2023-01-01'::timestamp),
       justify_hours(interval '50 hours');
BEGIN;
SET LOCAL IntervalStyle = iso_8601;
SELECT interval '1 day 2 hours';
ROLLBACK;
SELECT interval '1 day 2 hours';
DROP TABLE iv;
RESET IntervalStyle;
