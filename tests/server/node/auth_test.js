// auth_test.js -- node-postgres (npm `pg`) authenticating with
// SCRAM-SHA-256 against tupledb serve (pg checks the server's signature).
//
//   node auth_test.js HOST PORT
//
// Needs run.sh's auth group setup: role alice with password 'secret',
// scram-sha-256 for TCP.  Prints "  ok node-auth: NAME" lines and
// "RESULT node-auth: N passed, N failed".
'use strict';

const { Client } = require('pg');

let passed = 0;
let failed = 0;

function check(name, cond, detail) {
    if (cond) {
        passed++;
        console.log('  ok    node-auth: ' + name);
    } else {
        failed++;
        console.log('  FAIL  node-auth: ' + name + ': ' +
                    JSON.stringify(detail));
    }
}

async function main() {
    const [host, port] = process.argv.slice(2);
    const opts = { host, port: Number(port), user: 'alice', database: 'tdb' };

    const client = new Client({ ...opts, password: 'secret' });
    await client.connect();
    const r = await client.query('SELECT current_user AS u');
    check('SCRAM-SHA-256 with the right password', r.rows[0].u === 'alice',
          r.rows);
    await client.end();

    const bad = new Client({ ...opts, password: 'wrong' });
    let err = null;
    try {
        await bad.connect();
    } catch (e) {
        err = e;
    }
    check('a wrong password is 28P01', err && err.code === '28P01' &&
          err.message === 'password authentication failed for user "alice"',
          err && [err.code, err.message]);
}

main().catch((e) => {
    check('ran to the end', false, String(e && e.stack || e));
}).finally(() => {
    console.log('RESULT node-auth: ' + passed + ' passed, ' + failed +
                ' failed');
    process.exitCode = failed ? 1 : 0;
});
