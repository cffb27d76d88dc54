import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readBundle } from '@skillhub/bundle';
import { EXIT } from './exit-codes';
import { packDir, readSkillDir } from './pack-dir';

describe('pack-dir', () => {
  let dir: string;
  beforeEach(() => {
    dir = join(mkdtempSync(join(tmpdir(), 'skillhub-pack-')), 'my-skill');
    mkdirSync(join(dir, 'lib'), { recursive: true });
    mkdirSync(join(dir, '.git'));
    mkdirSync(join(dir, 'node_modules', 'x'), { recursive: true });
    writeFileSync(join(dir, 'skill_manifest.yaml'), 'name: x\n');
    writeFileSync(join(dir, 'lib', 'b.py'), 'b');
    writeFileSync(join(dir, 'a.py'), 'a');
    writeFileSync(join(dir, '.git', 'HEAD'), 'ref');
    writeFileSync(join(dir, 'node_modules', 'x', 'index.js'), '');
  });
  afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

  it('reads the files sorted, skipping .git and node_modules', () => {
    expect(readSkillDir(dir).map((f) => f.path)).toEqual(['a.py', 'lib/b.py', 'skill_manifest.yaml']);
  });

  it('packs the same folder into the same bytes, under the folder name', () => {
    const first = packDir(dir);
    expect(packDir(dir).equals(first)).toBe(true);
    const bundle = readBundle(first);
    expect(bundle.rootFolder).toBe('my-skill');
    expect(bundle.files.map((f) => f.path)).toEqual(['a.py', 'lib/b.py', 'skill_manifest.yaml']);
  });

  it('refuses a folder that holds no skill, naming the manifests it looked for and the files it found', () => {
    rmSync(join(dir, 'skill_manifest.yaml'));
    let caught: unknown;
    try {
      packDir(dir);
    } catch (err) {
      caught = err;
    }
    expect(caught).toMatchObject({ exitCode: EXIT.refused, hint: expect.stringContaining('skillhub init') });
    const { message } = caught as Error;
    expect(message).toContain('is not a skill folder');
    for (const manifest of ['skill_manifest.yaml', 'SKILL.md', 'apiVersion: swarmkit/v1', 'Found: a.py']) {
      expect(message).toContain(manifest);
    }
    rmSync(join(dir, 'a.py'));
    expect(() => packDir(dir)).toThrow(/Found: no files \(only folders at its root: lib\)/);
  });

  it('refuses a missing folder as a usage error', () => {
    expect(() => readSkillDir(join(dir, 'nope'))).toThrow(expect.objectContaining({ exitCode: EXIT.usage }));
  });
});
