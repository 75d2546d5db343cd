--
-- Many instants shown in several session zones: every offset change of
-- the zone database's history and its rules for the future has to land
-- where PostgreSQL puts it (breaking instants down, reading local times
-- back, casts, day and month arithmetic, date_trunc).  Each zone prints
-- a sample of the rows and a digest of the text of all of them.
--
CREATE TABLE sweep (i int, t timestamptz);
-- every 7 hours 13 minutes through 2023-2025 (across all DST changes)
INSERT INTO sweep
SELECT g, to_timestamp(1672531200 + g * 25980)
FROM generate_series(0, 3700) g;
-- one instant a year from 1800 to 2300 (at a different hour each year)
INSERT INTO sweep
SELECT 10000 + g, to_timestamp(-5364662400 + g::bigint * 31556952 + 3600 * (g % 24))
FROM generate_series(0, 500) g;
INSERT INTO sweep VALUES (20001, '0001-01-01 00:00+00'), (20002, '1000-06-15 12:00+00'),
  (20003, '9999-12-31 23:59:59.999999+00'), (20004, '100000-07-01 00:00+00');
SET TimeZone = 'America/New_York';
SELECT i, t, t::timestamp, t::date, date_trunc('day', t) AS day
FROM sweep WHERE i % 97 = 0 OR i % 10 = 0 AND i >= 10000 ORDER BY i;
SELECT md5(string_agg(t::text || ' ' || t::timestamp || ' ' || date_trunc('day', t)
                      || ' ' || (t + interval '1 month'), ',' ORDER BY i)) FROM sweep;
-- what is printed reads back as the same instant
SELECT count(*) FROM sweep WHERE t::text::timestamptz <> t;
-- local time read back: differs only in the repeated hour of an overlap
SELECT i, t FROM sweep WHERE t::timestamp::timestamptz <> t ORDER BY i;
SELECT i, t FROM sweep WHERE t + interval '1 day' - interval '1 day' <> t ORDER BY i;
SELECT count(*), sum(extract(epoch FROM (t + interval '1 day') - t) / 3600) FROM sweep WHERE i < 10000;
SET TimeZone = 'Europe/London';
SELECT i, t, t::timestamp FROM sweep WHERE i % 101 = 0 OR i % 20 = 0 AND i >= 10000 ORDER BY i;
SELECT md5(string_agg(t::text || ' ' || t::timestamp || ' ' || date_trunc('week', t), ',' ORDER BY i)) FROM sweep;
SELECT count(*) FROM sweep WHERE t::text::timestamptz <> t;
SELECT i, t FROM sweep WHERE t::timestamp::timestamptz <> t ORDER BY i;
SET TimeZone = 'Australia/Lord_Howe';
SELECT i, t, t + interval '1 month' AS next_month FROM sweep WHERE i % 103 = 0 ORDER BY i;
SELECT md5(string_agg(t::text || ' ' || (t + interval '1 month') || ' ' || (t - interval '1 day'), ',' ORDER BY i)) FROM sweep;
SELECT count(*) FROM sweep WHERE t::text::timestamptz <> t;
SET TimeZone = 'America/Sao_Paulo';
SELECT i, t, date_trunc('month', t) FROM sweep WHERE i % 107 = 0 OR i BETWEEN 10100 AND 10240 AND i % 7 = 0 ORDER BY i;
SELECT md5(string_agg(t::text || ' ' || date_trunc('month', t) || ' ' || t::date, ',' ORDER BY i)) FROM sweep;
SET TimeZone = 'Asia/Tehran';
SELECT i, t, extract(timezone FROM t) AS tz FROM sweep WHERE i % 109 = 0 OR i BETWEEN 10150 AND 10250 AND i % 5 = 0 ORDER BY i;
SELECT md5(string_agg(t::text || ' ' || extract(timezone FROM t) || ' ' || extract(hour FROM t), ',' ORDER BY i)) FROM sweep;
SET TimeZone = 'Africa/Casablanca';
SELECT i, t FROM sweep WHERE i % 113 = 0 ORDER BY i;
SELECT md5(string_agg(t::text, ',' ORDER BY i)) FROM sweep;
SELECT count(*) FROM sweep WHERE t::text::timestamptz <> t;
SET TimeZone = 'Pacific/Apia';
SELECT i, t, t::date FROM sweep WHERE i % 127 = 0 OR i BETWEEN 10205 AND 10215 ORDER BY i;
SELECT md5(string_agg(t::text || ' ' || t::date, ',' ORDER BY i)) FROM sweep;
SET TimeZone = 'EST5EDT';
SELECT i, t FROM sweep WHERE i % 131 = 0 OR i >= 10000 AND i % 25 = 0 ORDER BY i;
SELECT md5(string_agg(t::text, ',' ORDER BY i)) FROM sweep;
SET TimeZone = '<-03>3<-02>,M3.5.0/-2,M10.5.0/-1';
SHOW TimeZone;
SELECT i, t FROM sweep WHERE i % 137 = 0 OR i >= 20000 ORDER BY i;
SELECT md5(string_agg(t::text || ' ' || (t + interval '1 day'), ',' ORDER BY i)) FROM sweep;
SELECT count(*) FROM sweep WHERE t::text::timestamptz <> t;
-- the other styles print the zone's abbreviation of the moment
SET TimeZone = 'Europe/London';
SET DateStyle = 'SQL, DMY';
SELECT i, t FROM sweep WHERE i BETWEEN 10000 AND 10200 AND i % 9 = 0 ORDER BY i;
SELECT md5(string_agg(t::text, ',' ORDER BY i)) FROM sweep;
SET DateStyle = 'Postgres, MDY';
SET TimeZone = 'America/Sao_Paulo';
SELECT md5(string_agg(t::text, ',' ORDER BY i)) FROM sweep;
SELECT count(*) FROM sweep WHERE t::text::timestamptz <> t;
RESET DateStyle;
RESET TimeZone;
DROP TABLE sweep;
