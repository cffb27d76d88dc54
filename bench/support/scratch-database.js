// A PostgreSQL database of a benchmark's own: created empty, dropped afterwards however the
// run ends. TEST_DATABASE_URL (default the local `postgres` database) is where it is created.
const { randomBytes } = require('node:crypto');
const { Client } = require('pg');

const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Runs `work(url)` on a new `skillhub_bench_<random>` database and returns what it returns. */
async function withScratchDatabase(work) {
  const name = `skillhub_bench_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  try {
    return await work(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}

module.exports = { withScratchDatabase };
