/**
 * Migrations are frozen: each runs, years later, exactly as it ran the day it was written, so it
 * holds every statement and helper it needs and imports nothing but TypeORM's types. Entities,
 * repositories and helpers change; a migration that imported them would change with them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';
import { MIGRATIONS } from './migrations';

const FOLDER = join(__dirname, 'migrations');
const ALLOWED = new Set(['typeorm']);

/** Every module a file names: imports, re-exports, `import()` and `require()`. */
function importsOf(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((file) => file.fileName);
}

const migrationFiles = readdirSync(FOLDER).filter((file) => file.endsWith('.ts') && file !== 'index.ts');

describe('migrations', () => {
  it('finds every way a file can reach other code', () => {
    const source = [
      `import { MigrationInterface } from 'typeorm';`,
      `import { ENTITIES } from '../entities';`,
      `export * from './helpers';`,
      `const signing = await import('@skillhub/signing');`,
      `const fs = require('node:fs');`,
    ].join('\n');
    expect(importsOf(source)).toEqual(['typeorm', '../entities', './helpers', '@skillhub/signing', 'node:fs']);
  });

  it.each(migrationFiles)('%s imports nothing but typeorm', (file) => {
    const imports = importsOf(readFileSync(join(FOLDER, file), 'utf8'));
    expect(imports.filter((name) => !ALLOWED.has(name))).toEqual([]);
  });

  it('lists every migration file, in the order of their timestamps, and nothing else', () => {
    const listed = importsOf(readFileSync(join(FOLDER, 'index.ts'), 'utf8'));
    const files = [...migrationFiles].sort().map((file) => `./${file.replace(/\.ts$/, '')}`);
    expect(listed).toEqual(files);
    expect(MIGRATIONS.map((migration) => migration.name.replace(/^\D+/, ''))).toEqual(
      files.map((file) => /\d+/.exec(file)![0]),
    );
  });
});
