-- generate_series over numeric and timestamps
SELECT * FROM generate_series(1.5, 3);
SELECT * FROM generate_series(1, 2.50, 0.5);
SELECT * FROM generate_series(3.0, 1, -0.75);
SELECT generate_series(0.1, 0.3, 0.1);
SELECT count(*) FROM generate_series(1::numeric, 1000);
SELECT * FROM generate_series(1::numeric, 0);
SELECT * FROM generate_series('2024-01-01'::timestamp, '2024-01-02', '6 hours');
SELECT * FROM generate_series('2024-01-31'::timestamp, '2024-06-30', '1 month');
SELECT * FROM generate_series('2024-01-02'::timestamp, '2024-01-01', '-8 hours');
SELECT * FROM generate_series('2024-01-01 00:00+00'::timestamptz, '2024-01-01 03:00+00', '90 minutes');
SELECT g::date, extract(dow FROM g) FROM generate_series('2024-02-26'::timestamp, '2024-03-03', '1 day') g;
SELECT * FROM generate_series('2024-01-01'::timestamp, '2023-01-01', '1 day');
-- errors
SELECT * FROM generate_series(1, 2, 0::numeric);
SELECT * FROM generate_series('NaN'::numeric, 2);
SELECT * FROM generate_series(1, 'Infinity'::numeric);
SELECT * FROM generate_series(1::numeric, 2, 'NaN');
SELECT * FROM generate_series('2024-01-01'::timestamp, '2024-01-02', '0 days');
SELECT * FROM generate_series('2024-01-01'::timestamp, '2024-01-02');
