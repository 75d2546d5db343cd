-- AT TIME ZONE / timezone(): zone names, abbreviations, POSIX specs, intervals,
-- daylight-saving gaps and overlaps, infinities, range and errors.
SELECT timestamptz '2024-03-10 12:00+00' AT TIME ZONE 'America/New_York';
SELECT timestamptz '2024-03-10 06:59+00' AT TIME ZONE 'america/new_york';
SELECT timestamp '2024-03-10 12:00' AT TIME ZONE 'UTC';
SELECT timestamp '2024-03-10 02:30' AT TIME ZONE 'America/New_York';
SELECT timestamp '2024-11-03 01:30' AT TIME ZONE 'America/New_York';
SELECT timestamptz '2024-07-01 12:00+00' AT TIME ZONE 'EST', timestamptz '2024-07-01 12:00+00' AT TIME ZONE 'est';
SELECT timestamptz '2024-07-01 12:00+00' AT TIME ZONE '+05', timestamptz '2024-07-01 12:00+00' AT TIME ZONE 'UTC+3';
SELECT timestamp '2024-07-01 12:00' AT TIME ZONE 'CET', timestamp '2024-07-01 12:00' AT TIME ZONE 'MSK';
SELECT timestamptz '2024-07-01 12:00+00' AT TIME ZONE INTERVAL '-08:00', timestamp '2024-07-01 12:00' AT TIME ZONE INTERVAL '05:30';
SELECT timestamptz 'infinity' AT TIME ZONE 'UTC', timestamp '-infinity' AT TIME ZONE 'Asia/Tokyo';
SELECT timestamptz '2024-07-01 12:00+00' AT TIME ZONE 'Mars/Olympus';
SELECT timestamptz '2024-07-01 12:00+00' AT TIME ZONE INTERVAL '1 day';
SELECT timezone('Asia/Kolkata', timestamptz '2000-01-01 00:00+00');
SET TimeZone = 'Europe/Berlin';
SELECT timestamp '2024-07-01 12:00' AT TIME ZONE 'UTC', (timestamp '2024-07-01 12:00' AT TIME ZONE 'UTC') AT TIME ZONE 'Asia/Tokyo';
SELECT timestamptz '294276-12-31 23:59:59+00' AT TIME ZONE 'Asia/Tokyo';
SELECT '2024-01-01 00:00'::timestamp AT TIME ZONE NULL;
RESET TimeZone;
