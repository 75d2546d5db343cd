CREATE TABLE sc (id int, name text, note text DEFAULT 'from a file');
COPY sc (id, name) FROM :'srvin';
COPY sc (id, name) FROM :'srvcsv' WITH (FORMAT csv, HEADER match);
SELECT * FROM sc ORDER BY id;
COPY sc TO :'srvout';
COPY (SELECT id, name FROM sc WHERE id > 1 ORDER BY id) TO :'srvout2' (FORMAT csv, HEADER, FORCE_QUOTE *);
COPY sc FROM :'srvout';
SELECT count(*) FROM sc;
-- server-side file errors
COPY sc FROM :'nosuch';
COPY sc TO 'relative.txt';
COPY sc FROM :'dir';
COPY sc TO :'dir';
COPY sc TO :'nodir';
COPY sc FROM :'srvbad';
SELECT count(*) FROM sc;
-- client-side files: \copy
\copy sc (id, name) from 'client.txt'
\copy (SELECT id, name FROM sc ORDER BY id LIMIT 2) to 'client_out.csv' with (format csv, header)
\copy sc to 'client_out.txt'
-- a bigger COPY through psql's buffers
CREATE TABLE big (i int, t text);
\copy big from 'big.txt'
SELECT count(*), sum(i), max(length(t)) FROM big;
COPY big TO :'bigout';
TRUNCATE big;
COPY big FROM :'bigout' WITH (FORMAT text);
SELECT count(*), sum(i) FROM big;
DROP TABLE sc, big;
