#!/usr/bin/env node
// `npm start`: builds when the sources are newer than the build, then runs hub-api
// on the embedded default (or on DATABASE_URL when it is set).
const { execSync, spawn } = require('node:child_process');
const { existsSync, readdirSync, statSync, utimesSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const entry = join(root, 'dist/apps/hub-api/src/main.js');
const stamp = join(root, 'dist/.tsbuildinfo');

function newestSource(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestSource(p));
    else if (e.name.endsWith('.ts') && !/\.(int-)?spec\.ts$/.test(e.name))
      newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

const stale =
  !existsSync(entry) ||
  !existsSync(stamp) ||
  Math.max(newestSource(join(root, 'apps')), newestSource(join(root, 'libs'))) > statSync(stamp).mtimeMs;
if (stale) {
  console.log('Building Skill Hub (first start or changed sources)…');
  execSync('npm run build', { cwd: root, stdio: 'inherit' });
  // An incremental build with nothing to emit leaves the stamp untouched; mark it fresh.
  const now = new Date();
  utimesSync(stamp, now, now);
}
// hub-api's Node flags (its heap limit, docs/architecture.md "Memory") are those of `npm run start:hub-api`.
const flags = require('../package.json')
  .scripts['start:hub-api'].split(/\s+/)
  .filter((a) => a.startsWith('--'));
const child = spawn(process.execPath, [...flags, entry], { stdio: 'inherit', env: process.env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
