// pg_test.js -- node-postgres (the `pg` npm package) against tupledb serve.
//
//   node pg_test.js SOCKET_DIR PORT
//
// pg speaks the extended protocol for every query with values or a name
// (Parse/Bind/Describe/Execute/Sync, text parameters, text results), so
// this covers parameterized queries, prepared statements by name,
// transactions, and errors mapped to err.code.  Prints one "  ok NAME" /
// "  FAIL NAME: detail" line per check (tests/server/run.sh counts them)
// and "RESULT node: N passed, N failed"; exits 1 if a check failed.
'use strict';

const { Client } = require('pg');

let passed = 0;
let failed = 0;

function check(name, cond, detail) {
    if (cond) {
        passed++;
        console.log('  ok    node: ' + name);
    } else {
        failed++;
        console.log('  FAIL  node: ' + name + ': ' + JSON.stringify(detail));
    }
}

async function errorOf(promise) {
    try {
        await promise;
        return null;
    } catch (err) {
        return err;
    }
}

async function main() {
    const [host, port] = process.argv.slice(2);
    const client = new Client({ host, port: Number(port), user: 'tester',
                                database: 'node' });
    await client.connect();
    check('connect', true);

    await client.query('CREATE TABLE nt (k int, v text, n numeric(8,2), ' +
                       'd date, b bool)');
    let r = await client.query('SELECT $1::int + $2::int AS s', [40, 2]);
    check('parameterized query', r.rows.length === 1 && r.rows[0].s === 42,
          r.rows);

    for (let i = 1; i <= 3; i++) {
        r = await client.query({
            name: 'ins',
            text: 'INSERT INTO nt VALUES ($1, $2, $3, $4, $5) RETURNING k',
            values: [i, 'v' + i, i * 1.25, '2024-02-0' + i, i % 2 === 1],
        });
    }
    check('prepared statement by name, run three times',
          r.rowCount === 1 && r.rows[0].k === 3, r.rows);
    r = await client.query({ name: 'get',
                             text: 'SELECT k, v, n, b FROM nt WHERE k >= $1 ' +
                                   'ORDER BY k',
                             values: [2] });
    const r2 = await client.query({ name: 'get', values: [3] });
    check('a named statement reused with new values',
          r.rows.length === 2 && r.rows[0].v === 'v2' &&
          r.rows[0].n === '2.50' && r.rows[0].b === false &&
          r2.rows.length === 1 && r2.rows[0].k === 3,
          [r.rows, r2.rows]);
    check('fields carry the table OID and column number',
          r.fields[1].name === 'v' && r.fields[1].tableID > 0 &&
          r.fields[1].columnID === 2 && r.fields[1].dataTypeID === 25,
          r.fields);
    r = await client.query('SELECT v FROM nt WHERE k = $1 OR v = $2',
                           [null, 'v1']);
    check('a NULL parameter', r.rows.length === 1 && r.rows[0].v === 'v1',
          r.rows);
    r = await client.query('SELECT d FROM nt WHERE d > $1 ORDER BY d',
                           [new Date(Date.UTC(2024, 1, 2))]);
    check('a Date parameter against a date column', r.rows.length >= 1,
          r.rows);

    await client.query('BEGIN');
    await client.query('INSERT INTO nt (k) VALUES ($1)', [100]);
    await client.query('ROLLBACK');
    await client.query('BEGIN');
    await client.query('INSERT INTO nt (k) VALUES ($1)', [101]);
    await client.query('COMMIT');
    r = await client.query('SELECT count(*) AS c FROM nt WHERE k >= $1',
                           [100]);
    check('transactions: ROLLBACK undoes, COMMIT keeps',
          r.rows[0].c === '1', r.rows);

    let err = await errorOf(client.query('SELECT 1 / $1::int', [0]));
    check('division by zero -> err.code 22012', err && err.code === '22012',
          err && err.code);
    err = await errorOf(client.query('SELECT * FROM nosuch WHERE k = $1',
                                     [1]));
    check('undefined table -> err.code 42P01', err && err.code === '42P01',
          err && err.code);
    err = await errorOf(client.query('SELECT $1::int', ['x']));
    check('bad parameter text -> err.code 22P02',
          err && err.code === '22P02', err && err.code);
    await client.query('BEGIN');
    err = await errorOf(client.query('SELECT 1 / $1::int', [0]));
    const err2 = await errorOf(client.query('SELECT $1::int', [1]));
    await client.query('ROLLBACK');
    check('an error fails the block: 25P02 until ROLLBACK',
          err && err.code === '22012' && err2 && err2.code === '25P02',
          [err && err.code, err2 && err2.code]);
    r = await client.query('SELECT count(*) AS c FROM nt');
    check('the connection goes on after errors', r.rows[0].c === '4',
          r.rows);

    await client.query('DROP TABLE nt');
    await client.end();
}

main().catch((e) => {
    check('ran to the end', false, String(e && e.stack || e));
}).finally(() => {
    console.log('RESULT node: ' + passed + ' passed, ' + failed + ' failed');
    process.exitCode = failed ? 1 : 0;
});
