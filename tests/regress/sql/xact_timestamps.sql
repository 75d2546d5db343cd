--
-- now(), CURRENT_TIMESTAMP and transaction_timestamp() are the start of
-- the transaction, the same in every statement of it;
-- statement_timestamp() is when the current command arrived;
-- clock_timestamp() is the clock.  The input words 'now', 'today',
-- 'tomorrow' and 'yesterday' are relative to the transaction's start.
-- (Values are compared, never printed.)
--
CREATE TABLE xt (step int, t timestamptz, st timestamptz);
BEGIN;
INSERT INTO xt VALUES (1, now(), statement_timestamp());
INSERT INTO xt VALUES (2, now(), statement_timestamp());
SELECT count(DISTINCT t) AS one_now, count(DISTINCT st) >= 1 AS ok FROM xt;
SELECT t = now() AS same_now, t = current_timestamp AS same_current,
       t = transaction_timestamp() AS same_xact, t = 'now'::timestamptz AS same_literal
FROM xt WHERE step = 1;
SELECT statement_timestamp() >= now() AS stmt_after_start,
       clock_timestamp() >= statement_timestamp() AS clock_after_stmt,
       st <= statement_timestamp() AS earlier_stmt
FROM xt WHERE step = 1;
SELECT count(DISTINCT now()) AS one_value FROM (VALUES (1), (2), (3), (4)) v(x);
SELECT now()::date = current_date AS date_ok,
       now()::timestamp = localtimestamp AS localts_ok,
       now()::time = localtime AS localtime_ok,
       date_trunc('second', now() + interval '0.5 s') = current_timestamp(0) AS rounded_ok;
SELECT 'today'::date = current_date AS today_ok,
       'tomorrow'::date = current_date + 1 AS tomorrow_ok,
       'yesterday'::timestamp = current_date - 1 AS yesterday_ok,
       'today'::timestamptz = date_trunc('day', now()) AS today_tz_ok,
       'now'::timestamp = localtimestamp AS now_ts_ok,
       'now'::time = localtime AS now_time_ok;
COMMIT;
-- a new transaction has a new start
SELECT now() >= (SELECT t FROM xt WHERE step = 1) AS later,
       now() = (SELECT t FROM xt WHERE step = 1) AS same;
-- an aborted block keeps its start until it ends
BEGIN;
INSERT INTO xt VALUES (3, now(), statement_timestamp());
SELECT t = now() FROM xt WHERE step = 3;
SELECT 1 / 0;
ROLLBACK;
SELECT count(*) FROM xt WHERE step = 3;
-- in the session zone
SET TimeZone = 'Pacific/Kiritimati';
BEGIN;
SELECT 'today'::timestamptz = date_trunc('day', now()) AS today_tz_ok,
       current_date = now()::date AS date_ok,
       extract(timezone FROM now()) = 50400 AS offset_ok,
       age(current_date::timestamptz) = interval '0' AS age_ok,
       age(now()) <= interval '0' AS age_now_ok;
COMMIT;
RESET TimeZone;
-- stable functions are not evaluated at plan time
EXPLAIN (COSTS OFF) SELECT now(), statement_timestamp(), clock_timestamp();
EXPLAIN (COSTS OFF) SELECT 'now'::timestamptz;
DROP TABLE xt;
