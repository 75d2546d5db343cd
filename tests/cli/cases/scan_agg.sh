# scans and aggregates through the executor's fast paths (scan_agg.sql)
tupledb -X -a -q < scan_agg.sql 2>&1
