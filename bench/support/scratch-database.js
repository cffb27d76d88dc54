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

/**
 * Runs `work(url, fresh, seeded)` on database `name`, created when missing (then `fresh` is true)
 * and kept afterwards: for a catalogue too slow to seed at every run. `work` calls `seeded()` once
 * a fresh database holds its whole catalogue: a failure before that drops it, one after keeps it
 * (a measurement that fails does not throw away a seed of half an hour). `dropDatabase(name)`
 * ends it.
 */
async function withKeptDatabase(name, work) {
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  let fresh = false;
  try {
    const { rowCount } = await admin.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [name]);
    if (!rowCount) {
      await admin.query(`CREATE DATABASE "${name}"`);
      fresh = true;
    }
  } finally {
    await admin.end();
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  let complete = !fresh;
  try {
    return await work(url.toString(), fresh, () => (complete = true));
  } catch (err) {
    // A seed that did not finish is not kept.
    if (!complete) await dropDatabase(name);
    throw err;
  }
}

async function dropDatabase(name) {
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

module.exports = { withScratchDatabase, withKeptDatabase, dropDatabase };
