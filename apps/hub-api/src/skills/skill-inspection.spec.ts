import { DEFAULT_BUNDLE_LIMITS } from '@skillhub/bundle';
import { agentSkillBundle, kazmaBundle } from '@skillhub/testing';
import { inspectBundle, inspectManifest, rebuildError } from './skill-inspection';

const inspect = (bytes: Buffer, context = {}) => inspectBundle({ bytes, limits: DEFAULT_BUNDLE_LIMITS, context });

describe('inspectBundle', () => {
  it('reads a bundle into plain data: every file without its bytes', () => {
    const outcome = inspect(kazmaBundle({ name: 'weather', author: 'acme' }));
    if (!outcome.ok) throw new Error(outcome.error.message);
    const [only] = outcome.value;
    expect(outcome.value).toHaveLength(1);
    expect(only?.skill).toMatchObject({ name: 'weather', namespace: 'acme', version: '1.0.0' });
    expect(only?.bundle.rootFolder).toBe('weather');
    expect(only?.bytes).toBeUndefined();
    expect(only?.bundle.files.map((f) => Object.keys(f).sort())).toEqual([
      ['mode', 'path', 'sha256', 'size'],
      ['mode', 'path', 'sha256', 'size'],
    ]);
    // What crosses back from a worker thread is what structured cloning keeps.
    expect(structuredClone(outcome)).toEqual(outcome);
  });

  it.each([
    ['past int4', '3000000000.0.0'],
    ['past what semver parses', '9007199254740993.0.0'],
    ['a minor past int4', '1.2147483648.0'],
  ])('refuses a version %s, naming the field', (_, version) => {
    const outcome = inspect(kazmaBundle({ version }));
    expect(outcome).toEqual({
      ok: false,
      error: expect.objectContaining({
        code: 'SKILL.INVALID_MANIFEST',
        problems: [expect.objectContaining({ path: 'version', message: expect.stringContaining('2147483647') })],
      }),
    });
  });

  it('accepts the largest version the columns hold', () => {
    expect(inspect(kazmaBundle({ version: '2147483647.2147483647.2147483647' })).ok).toBe(true);
  });

  it('refuses a version the request gives an Agent Skill past int4', () => {
    const outcome = inspect(agentSkillBundle(), { namespace: 'acme', version: '3000000000.0.0' });
    expect(outcome.ok || outcome.error.problems.map((p) => p.path)).toEqual(['version']);
  });

  it('carries a bundle error as data, and rebuilds it with its code', () => {
    const outcome = inspect(Buffer.from('not a bundle'));
    if (outcome.ok) throw new Error('accepted');
    const error = rebuildError(structuredClone(outcome.error));
    expect(error.code).toBe('BUNDLE.INVALID');
    expect(error.problems.length).toBeGreaterThan(0);
  });
});

describe('inspectManifest', () => {
  it('refuses a submitted manifest with a NUL, naming its field', () => {
    const outcome = inspectManifest({
      name: 'x',
      version: '1.0.0',
      description: 'a\u0000',
      author: 'a',
      license: 'MIT',
    });
    expect(outcome.ok || outcome.error.problems).toEqual([
      expect.objectContaining({ path: 'skill_manifest.yaml#description' }),
    ]);
  });
});
