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
-- each field takes the leading sign as it is read, before it is added,
-- so fields of different units add up as PostgreSQL adds them
SELECT interval '-23 hours 45 min 12.34 sec', interval '-0.5 days 3 hours',
       interval '-1.5 years 2 days', interval '-3 days 5';
SELECT interval '-2.25 years 10-5', interval '-5 min 59.999 hour',
       interval '-2 sec 59 microsecond', interval '-3.34 months 5 microsecond';
SELECT interval '-5.25 mon 59.5 hour', interval '-1 year 2 months 3 days 4 hours',
       interval '-23 hours 45 min 12.34 sec ago', interval '-1 week 2 days';
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
