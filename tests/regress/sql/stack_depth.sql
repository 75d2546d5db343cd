-- max_stack_depth: PostgreSQL's default, units, limits and messages.
-- (Statements nested past it: tests/cli/cases/deep.sh, the server's
-- "deep" group, tests/unit/tcop/test_deep.c.)
SHOW max_stack_depth;
SET max_stack_depth = '100kB';
SHOW max_stack_depth;
SET max_stack_depth = 1000;
SHOW max_stack_depth;
SET max_stack_depth = '1.5MB';
SHOW max_stack_depth;
SET max_stack_depth = '3MB';
SHOW max_stack_depth;
SET max_stack_depth = 99;
SET max_stack_depth = '0';
SET max_stack_depth = '5s';
SET max_stack_depth = 'deep';
SHOW max_stack_depth;
RESET max_stack_depth;
SHOW max_stack_depth;
BEGIN;
SET LOCAL max_stack_depth = '200kB';
SHOW max_stack_depth;
ROLLBACK;
SHOW max_stack_depth;
SET max_stack_depth TO DEFAULT;
SHOW max_stack_depth;
-- a statement under the lowest setting still runs when shallow
SET max_stack_depth = '100kB';
SELECT 1 + 2 * 3 AS shallow;
RESET max_stack_depth;
