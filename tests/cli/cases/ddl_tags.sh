# not quiet, no echo: command tags on stdout, messages on stderr
tupledb -X < ddl.sql
