--
-- The TimeZone setting: timestamptz input and output in the session
-- zone with the zone database's daylight-saving rules, SET / RESET /
-- SET LOCAL in transactions, the forms SET TIME ZONE accepts, and the
-- conversions, arithmetic and functions that read the zone.
--
SHOW TimeZone;
SELECT '2024-01-01 00:00+00'::timestamptz;
SET TimeZone = 'America/New_York';
SHOW TimeZone;
SELECT '2024-01-01 00:00+00'::timestamptz AS winter,
       '2024-07-01 00:00+00'::timestamptz AS summer;
-- input without a zone is local time
SELECT '2024-01-15 12:00'::timestamptz, '2024-07-15 12:00'::timestamptz;
SELECT '2024-01-15 12:00'::timestamptz = '2024-01-15 17:00+00'::timestamptz;
-- names are matched case-insensitively and shown as the database spells them
SET TimeZone = 'europe/berlin';
SHOW TimeZone;
SELECT '2024-03-31 00:59:59+00'::timestamptz, '2024-03-31 01:00:00+00'::timestamptz;
SELECT '2024-10-27 00:59:59+00'::timestamptz, '2024-10-27 01:00:00+00'::timestamptz;
-- a spring-forward gap and a fall-back overlap in input
SET TimeZone = 'America/New_York';
SELECT '2024-03-10 02:30'::timestamptz AS in_gap,
       '2024-11-03 01:30'::timestamptz AS in_overlap;
-- around the transitions
SELECT '2024-03-10 06:59:59+00'::timestamptz, '2024-03-10 07:00:00+00'::timestamptz;
SELECT '2024-11-03 05:59:59+00'::timestamptz, '2024-11-03 06:00:00+00'::timestamptz;
-- historical offsets: local mean time before 1883, war time
SELECT '1850-01-01 00:00+00'::timestamptz, '1943-06-01 12:00+00'::timestamptz;
-- far future: the rule after the last transition
SELECT '2200-07-01 12:00+00'::timestamptz, '2200-12-01 12:00+00'::timestamptz;
-- the ends of the range
SELECT '4714-11-24 00:00:00+00 BC'::timestamptz, '294276-12-31 23:59:59+00'::timestamptz;
-- southern hemisphere, half-hour and quarter-hour zones
SET TimeZone = 'Australia/Sydney';
SELECT '2024-01-01 00:00+00'::timestamptz, '2024-07-01 00:00+00'::timestamptz;
SET TimeZone = 'Asia/Kolkata';
SELECT '2024-01-01 00:00+00'::timestamptz;
SET TimeZone = 'Asia/Kathmandu';
SELECT '2024-01-01 00:00+00'::timestamptz;
SET TimeZone = 'Pacific/Chatham';
SELECT '2024-01-01 00:00+00'::timestamptz, '2024-07-01 00:00+00'::timestamptz;
-- UTC spellings
SET TimeZone = 'utc';
SHOW TimeZone;
SET TimeZone = 'GMT';
SHOW TimeZone;
SELECT '2024-01-01 00:00+00'::timestamptz;
SET TimeZone = 'Etc/GMT+5';
SHOW TimeZone;
SELECT '2024-01-01 00:00+00'::timestamptz;
-- POSIX time zone strings
SET TimeZone = 'foo+3';
SHOW TimeZone;
SELECT '2024-07-01 12:00'::timestamptz;
SET TimeZone = 'EST5EDT';
SELECT '2024-01-01 12:00'::timestamptz, '2024-07-01 12:00'::timestamptz;
SET TimeZone = '<+0330>-3:30';
SHOW TimeZone;
SELECT '2024-07-01 12:00'::timestamptz;
-- SET TIME ZONE: numbers of hours, intervals, LOCAL and DEFAULT
SET TIME ZONE -5;
SHOW TimeZone;
SELECT '2024-07-01 12:00'::timestamptz;
SET TIME ZONE 5.5;
SHOW TimeZone;
SELECT '2024-07-01 12:00'::timestamptz;
SET TIME ZONE '+05';
SHOW TimeZone;
SET TIME ZONE INTERVAL '-08:00' HOUR TO MINUTE;
SHOW TimeZone;
SELECT '2024-07-01 12:00'::timestamptz;
SET TIME ZONE INTERVAL '+02:30' HOUR TO MINUTE;
SHOW TimeZone;
SET TIME ZONE INTERVAL '-08:00:30';
SHOW TimeZone;
SET TIME ZONE 'Europe/Paris';
SHOW TimeZone;
SET TIME ZONE LOCAL;
SHOW TimeZone;
SET TIME ZONE 'Asia/Tokyo';
SET TIME ZONE DEFAULT;
SHOW TimeZone;
SET TimeZone = 'Asia/Tokyo';
RESET TimeZone;
SHOW TimeZone;
-- errors
SET TimeZone = 'nosuch/zone';
SET TimeZone = 'America';
SET TIME ZONE 200;
SET TIME ZONE INTERVAL '1 month';
SET TIME ZONE INTERVAL '1 day';
SET TIME ZONE INTERVAL '2 hours' DAY TO SECOND;
SET TimeZone = 'right/UTC';
SHOW TimeZone;
-- transactions: SET is undone by ROLLBACK, SET LOCAL ends with the block
SET TimeZone = 'America/Los_Angeles';
BEGIN;
SET TimeZone = 'Asia/Tokyo';
SELECT '2024-01-01 00:00+00'::timestamptz;
ROLLBACK;
SHOW TimeZone;
SELECT '2024-01-01 00:00+00'::timestamptz;
BEGIN;
SET TimeZone = 'Asia/Tokyo';
COMMIT;
SHOW TimeZone;
BEGIN;
SET LOCAL TimeZone = 'Europe/London';
SELECT '2024-07-01 00:00+00'::timestamptz;
COMMIT;
SHOW TimeZone;
SELECT '2024-07-01 00:00+00'::timestamptz;
BEGIN;
SET LOCAL TimeZone = 'Europe/London';
SET TimeZone = 'America/Chicago';
SHOW TimeZone;
COMMIT;
SHOW TimeZone;
BEGIN;
SET TimeZone = 'Europe/London';
SELECT 1 / 0;
ROLLBACK;
SHOW TimeZone;
SET TimeZone = 'America/New_York';
-- conversions between timestamptz and the zone-less types
SELECT '2024-03-10 12:00'::timestamp::timestamptz,
       '2024-03-10 12:00+00'::timestamptz::timestamp;
SELECT '2024-03-10'::date::timestamptz, '2024-03-11 03:00+00'::timestamptz::date;
SELECT '2024-07-01 03:30+00'::timestamptz::time;
SELECT '2024-03-10 12:00'::timestamp = '2024-03-10 16:00+00'::timestamptz,
       '2024-03-10 12:00'::timestamp < '2024-03-10 16:00+00'::timestamptz,
       '2024-03-10'::date = '2024-03-10 05:00+00'::timestamptz,
       '2024-03-10 05:00+00'::timestamptz > '2024-03-10'::date;
-- arithmetic: days and months count in local time
SELECT '2024-03-09 12:00'::timestamptz + interval '1 day' AS plus_day,
       '2024-03-09 12:00'::timestamptz + interval '24 hours' AS plus_24h,
       '2024-02-10 12:00'::timestamptz + interval '1 month' AS plus_month,
       '2024-03-11 12:00'::timestamptz - interval '1 day' AS minus_day,
       interval '1 day' + '2024-11-02 12:00'::timestamptz AS day_plus;
SELECT '2024-03-11 00:00'::timestamptz - '2024-03-10 00:00'::timestamptz;
SELECT age('2024-03-11 00:00'::timestamptz, '2024-01-10 12:00'::timestamptz);
-- date_trunc, extract and to_char in the session zone
SELECT date_trunc('day', '2024-03-10 12:00'::timestamptz),
       date_trunc('month', '2024-03-10 12:00'::timestamptz),
       date_trunc('hour', '2024-11-03 01:30-04'::timestamptz),
       date_trunc('hour', '2024-11-03 01:30-05'::timestamptz),
       date_trunc('week', '2024-03-13 12:00'::timestamptz);
SELECT extract(hour FROM '2024-07-01 00:00+00'::timestamptz) AS hour,
       extract(day FROM '2024-07-01 00:00+00'::timestamptz) AS day,
       extract(timezone FROM '2024-07-01 00:00+00'::timestamptz) AS tz,
       extract(timezone_hour FROM '2024-01-01 00:00+00'::timestamptz) AS tzh,
       extract(epoch FROM '2024-07-01 00:00+00'::timestamptz) AS epoch;
SELECT date_part('hour', '2024-07-01 00:00+00'::timestamptz);
SELECT to_char('2024-07-01 00:00+00'::timestamptz, 'YYYY-MM-DD HH24:MI:SS TZ tz TZH:TZM OF'),
       to_char('2024-01-01 00:00+00'::timestamptz, 'YYYY-MM-DD HH24:MI TZ OF');
SET TimeZone = 'Asia/Kolkata';
SELECT to_char('2024-01-01 00:00+00'::timestamptz, 'HH24:MI TZ TZH:TZM OF'),
       date_trunc('hour', '2024-01-01 00:00+00'::timestamptz),
       date_trunc('day', '2024-01-01 00:00+00'::timestamptz);
SELECT make_timestamptz(2024, 7, 1, 12, 30, 15.5);
SET TimeZone = 'America/New_York';
SELECT make_timestamptz(2024, 7, 1, 12, 30, 15.5),
       make_timestamptz(2024, 1, 1, 12, 30, 15.5);
-- abbreviations and offsets in input still win over the session zone
SELECT '2024-07-01 12:00 PST'::timestamptz, '2024-07-01 12:00+02'::timestamptz,
       '2024-07-01 12:00 Europe/Berlin'::timestamptz;
-- generate_series steps days and months in local time
SELECT * FROM generate_series('2024-03-08 12:00'::timestamptz, '2024-03-12', '1 day');
SELECT * FROM generate_series('2024-01-31 02:30'::timestamptz, '2024-06-01', '1 month');
SELECT * FROM generate_series('2024-11-03 00:30'::timestamptz, '2024-11-03 03:00', '30 minutes');
-- a table of instants keeps them; only their display changes
CREATE TABLE tz_events (id int, at timestamptz);
INSERT INTO tz_events VALUES (1, '2024-03-10 01:59:59'), (2, '2024-03-10 03:00:00'),
  (3, '2024-11-03 01:30:00-04'), (4, '2024-11-03 01:30:00-05');
SELECT id, at, at::timestamp AS local FROM tz_events ORDER BY id;
SET TimeZone = 'UTC';
SELECT id, at, at::timestamp AS local FROM tz_events ORDER BY id;
SELECT id FROM tz_events WHERE at < '2024-03-10 07:30' ORDER BY id;
SET TimeZone = 'America/New_York';
SELECT id FROM tz_events WHERE at < '2024-03-10 07:30' ORDER BY id;
SELECT id FROM tz_events WHERE at::date = '2024-11-03' ORDER BY id;
DROP TABLE tz_events;
-- casts that read the zone are not folded at plan time
EXPLAIN (COSTS OFF) SELECT '2024-01-01'::date::timestamptz;
EXPLAIN (COSTS OFF) SELECT '2024-01-01 00:00'::timestamp < '2024-01-01 00:00+00'::timestamptz;
EXPLAIN (COSTS OFF) SELECT '2024-01-01'::date + 1;
RESET TimeZone;
