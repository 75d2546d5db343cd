-- named arguments and argument defaults (make_interval has seven, all
-- with defaults)
SELECT make_interval(days => 10);
SELECT make_interval(1, 2, secs => 1.5);
SELECT make_interval();
SELECT make_interval(hours => 1, mins => 30);
SELECT make_interval(secs => 90, weeks => 1);
SELECT make_interval(1, 2, 3, 4, 5, 6, 7.5);
SELECT make_interval(years => '2');
SELECT make_interval(days => NULL);
SELECT make_interval(days => g) FROM generate_series(1, 3) g;
-- errors
SELECT make_interval(days => 1, days => 2);
SELECT make_interval(days => 1, 2);
SELECT make_interval(nosuch => 1);
SELECT make_interval(1, years => 2);
SELECT length(s => 'abc');
SELECT make_interval(1, 2, 3, 4, 5, 6, 7, 8);
