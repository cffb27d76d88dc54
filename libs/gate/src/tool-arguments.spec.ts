import { NotCanonicalJsonError } from '@skillhub/signing';
import { APPROVAL_FLAG_KEY, takeApprovalFlag } from './tool-arguments';

describe('takeApprovalFlag', () => {
  it('uses the reserved key "__approve"', () => {
    expect(APPROVAL_FLAG_KEY).toBe('__approve');
  });

  it.each([
    [{ path: '/x', __approve: true }, { path: '/x' }, true, true],
    [{ path: '/x', __approve: false }, { path: '/x' }, true, false],
    [{ path: '/x', __approve: 'true' }, { path: '/x' }, true, false],
    [{ path: '/x', __approve: 1 }, { path: '/x' }, true, false],
    [{ path: '/x', __approve: null }, { path: '/x' }, true, false],
    [{ path: '/x' }, { path: '/x' }, false, false],
    // Top level only: a nested key is the tool's own data.
    [{ opts: { __approve: true } }, { opts: { __approve: true } }, false, false],
    // Look-alikes are not the flag (and are passed on unchanged).
    [{ __Approve: true, _approve: true }, { __Approve: true, _approve: true }, false, false],
  ])('%j → %j (present %s, set %s)', (input, args, flagPresent, flagSet) => {
    expect(takeApprovalFlag(input)).toEqual({ args, flagPresent, flagSet });
  });

  it('treats missing arguments as none', () => {
    expect(takeApprovalFlag(undefined)).toEqual({ args: {}, flagPresent: false, flagSet: false });
    expect(takeApprovalFlag(null)).toEqual({ args: {}, flagPresent: false, flagSet: false });
  });

  it('returns a deep copy and leaves the caller’s object alone', () => {
    const input = { __approve: true, nested: { list: [1, 2] } };
    const { args } = takeApprovalFlag(input);
    expect(input).toHaveProperty('__approve', true);
    expect(args.nested).not.toBe(input.nested);
    expect(args).toEqual({ nested: { list: [1, 2] } });
  });

  it('keeps a "__proto__" key as data, without changing the prototype', () => {
    const { args } = takeApprovalFlag(JSON.parse('{"__proto__":{"polluted":true},"a":1}'));
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect((args as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.keys(args)).toEqual(['__proto__', 'a']);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('reads a getter once, so the tool gets the value the gate saw', () => {
    let reads = 0;
    const input = {
      get path(): string {
        reads += 1;
        return reads === 1 ? '/tmp/a' : '/etc/passwd';
      },
    };
    expect(takeApprovalFlag(input).args).toEqual({ path: '/tmp/a' });
    expect(reads).toBe(1);
  });

  it.each([
    ['an array', [1, 2]],
    ['a string', 'x'],
    ['a number', 5],
    ['a value that is not JSON', { when: new Date(0) }],
    ['a function value', { f: () => 1 }],
  ])('refuses %s', (_label, input) => {
    expect(() => takeApprovalFlag(input)).toThrow(NotCanonicalJsonError);
  });
});
