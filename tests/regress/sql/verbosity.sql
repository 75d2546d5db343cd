-- psql's VERBOSITY variable: how error reports are printed
\set VERBOSITY sqlstate
SELECT 1/0;
SELECT nosuch;
SELECT 'a'::int;
\set VERBOSITY terse
SELECT nosuch;
SELECT
  'a'::int;
SELECT 1 +;
\set VERBOSITY bogus
\set VERBOSITY default
SELECT nosuch;
\unset VERBOSITY
SELECT 1/0;
