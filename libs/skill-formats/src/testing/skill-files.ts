/** Test support: bundles as the parsers see them, from fixture folders or inline text. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { SkillFile } from '../skill.model';

const FIXTURES = join(__dirname, 'fixtures');

/** Every file under `fixtures/<folder>`, with POSIX paths relative to that folder. */
export function loadFixture(folder: string): SkillFile[] {
  const root = join(FIXTURES, folder);
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const absolute = join(entry.parentPath, entry.name);
      return { path: relative(root, absolute).split(sep).join('/'), content: readFileSync(absolute) };
    })
    .sort((a, b) => a.path.localeCompare(b.path));
}

/** `{ 'skill_manifest.yaml': 'name: x' }` → SkillFile[]. */
export function skillFiles(files: Readonly<Record<string, string | Buffer>>): SkillFile[] {
  return Object.entries(files).map(([path, content]) => ({
    path,
    content: typeof content === 'string' ? Buffer.from(content, 'utf8') : content,
  }));
}
