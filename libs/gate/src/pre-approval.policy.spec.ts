import { InvalidPreApprovalPolicyError } from './gate.errors';
import {
  EMPTY_PRE_APPROVAL_POLICY,
  createPreApprovalPolicy,
  findPreApproval,
  matchesPreApproval,
  preApprovalPatternProblem,
} from './pre-approval.policy';

describe('createPreApprovalPolicy', () => {
  it('accepts exact names and whole-server wildcards, frozen and de-duplicated', () => {
    const policy = createPreApprovalPolicy({
      allow: ['mcp__fs__delete_file', 'mcp__git_svc__*', 'mcp__fs__delete_file'],
    });
    expect(policy.allow).toEqual(['mcp__fs__delete_file', 'mcp__git_svc__*']);
    expect(Object.isFrozen(policy)).toBe(true);
    expect(Object.isFrozen(policy.allow)).toBe(true);
  });

  it('treats a missing list as empty', () => {
    expect(createPreApprovalPolicy({}).allow).toEqual([]);
  });

  it('lists every bad pattern at once', () => {
    const bad = ['*', 'mcp__*', 'mcp__fs__del*', 'mcp__a__b__*', 'delete_file', 'mcp__fs', 'mcp__bad_ __*', '.*', 7];
    try {
      createPreApprovalPolicy({ allow: ['mcp__fs__ok', ...bad] });
      throw new Error('expected a throw');
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidPreApprovalPolicyError);
      const e = error as InvalidPreApprovalPolicyError;
      expect(e.badPatterns.map((b) => b.index)).toEqual(bad.map((_, i) => i + 1));
      expect(e.problems).toHaveLength(bad.length);
      expect(e.code).toBe('GATE.INVALID_PRE_APPROVAL_POLICY');
    }
  });

  it.each([
    ['mcp__fs__read_file', null],
    ['mcp__fs__*', null],
    ['mcp____*', 'valid server name'],
    ['mcp__a__b__*', 'valid server name'],
    ['mcp__fs__read*', 'whole server'],
    ['mcp__fs__[a-z]+', 'exact'],
  ])('pattern %j → %j', (pattern, problem) => {
    const found = preApprovalPatternProblem(pattern);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toContain(problem);
  });
});

describe('matchesPreApproval', () => {
  const policy = createPreApprovalPolicy({ allow: ['mcp__fs__delete_file', 'mcp__git_svc__*'] });

  it.each([
    ['mcp__fs__delete_file', true],
    ['mcp__fs__delete_files', false],
    ['mcp__fs__delete_file_x', false],
    ['mcp__FS__delete_file', false], // case-sensitive
    ['mcp__fs__Delete_file', false],
    ['mcp__git_svc__push', true],
    ['mcp__git_svc__anything__at_all', true],
    ['mcp__git_svc_evil__push', false], // a longer server name is another server
    ['mcp__git__svc__push', false],
    ['delete_file', false], // raw names never match: the server is unknown
    ['MCP__fs__delete_file', false],
    ['', false],
  ])('%j → %s', (name, expected) => {
    expect(matchesPreApproval(policy, name)).toBe(expected);
  });

  it('reports which pattern matched', () => {
    expect(findPreApproval(policy, 'mcp__git_svc__push')).toBe('mcp__git_svc__*');
  });

  it('never matches with an empty, missing or malformed policy', () => {
    expect(matchesPreApproval(EMPTY_PRE_APPROVAL_POLICY, 'mcp__fs__read')).toBe(false);
    expect(matchesPreApproval(undefined, 'mcp__fs__read')).toBe(false);
    expect(matchesPreApproval({ allow: 'mcp__fs__read' } as never, 'mcp__fs__read')).toBe(false);
  });

  it('skips invalid patterns of an unvalidated policy instead of widening', () => {
    const raw = { allow: ['*', 'mcp__*', 'mcp__fs__re*', 'mcp__fs__read'] };
    expect(matchesPreApproval(raw, 'mcp__fs__write')).toBe(false);
    expect(matchesPreApproval(raw, 'mcp__fs__rename')).toBe(false);
    expect(matchesPreApproval(raw, 'mcp__fs__read')).toBe(true);
  });

  it('approves nothing when the policy object throws', () => {
    const hostile = {
      get allow(): string[] {
        throw new Error('boom');
      },
    };
    expect(matchesPreApproval(hostile, 'mcp__fs__read')).toBe(false);
  });
});
