#!/usr/bin/env node
// `skillhub`, the bin of this workspace package: it runs the CLI that `npm run build` writes to the
// repository's dist/. npm links it at node_modules/.bin/skillhub (so `npx skillhub` works after
// `npm ci`), and `npm i -g ./apps/cli` links it onto the PATH, pointing at this checkout.
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..', '..', '..');
const entry = join(root, 'dist', 'apps', 'cli', 'src', 'main.js');
if (existsSync(entry)) {
  require(entry).main();
} else {
  process.stderr.write(`error: skillhub is not built yet (no ${entry})\nhint: run npm run build in ${root}\n`);
  process.exitCode = 1;
}
