import {
  DEFAULT_SANDBOX_LIMITS,
  SANDBOX_HOME,
  SANDBOX_TOOLS,
  bwrapArgv,
  bwrapLaunch,
  isSystemPath,
  nodeOptionsFor,
  type SandboxPolicy,
} from './sandbox-policy';
import { SANDBOX_INVALID_POLICY, SandboxPolicyError } from './sandbox.errors';

const policy = (overrides: Partial<SandboxPolicy> = {}): SandboxPolicy => ({
  network: false,
  readOnly: [{ source: '/var/cache/skillhub/pkg', target: '/opt/pkg' }],
  tmpfs: [],
  env: { API_MODE: 'test' },
  cwd: '/opt/pkg',
  limits: DEFAULT_SANDBOX_LIMITS,
  ...overrides,
});

/** bwrap's own arguments: between the bwrap binary and the `--` before the program. */
const bwrapPart = (argv: string[]): string[] =>
  argv.slice(argv.indexOf(SANDBOX_TOOLS.bwrap) + 1, argv.lastIndexOf('--'));

/** Every `--flag a b` triple of one flag, as [a, b]. */
const pairs = (args: string[], flag: string): [string, string][] =>
  args.flatMap((arg, i) => (arg === flag ? [[args[i + 1] as string, args[i + 2] as string]] : []));

describe('bwrapArgv', () => {
  it('starts bwrap from an empty environment under prlimit, and runs the program after the last --', () => {
    const argv = bwrapArgv(policy(), ['/usr/bin/node', '/opt/pkg/index.js', '--flag']);

    expect(argv.slice(0, 3)).toEqual(['/usr/bin/env', '-i', '/usr/bin/prlimit']);
    expect(argv.indexOf('/usr/bin/bwrap')).toBeGreaterThan(argv.indexOf('--'));
    expect(argv.slice(argv.lastIndexOf('--') + 1)).toEqual(['/usr/bin/node', '/opt/pkg/index.js', '--flag']);
  });

  it('sets every limit with soft = hard, and no core files', () => {
    const limits = {
      cpuSeconds: 7,
      memoryBytes: 512 << 20,
      fileSizeBytes: 1 << 20,
      openFiles: 64,
      tmpfsBytes: 1 << 22,
    };
    const argv = bwrapArgv(policy({ limits }), ['/bin/true']);
    const prlimit = argv.slice(3, argv.indexOf('--'));

    expect(prlimit).toEqual([
      '--cpu=7:7',
      `--data=${512 << 20}:${512 << 20}`,
      `--fsize=${1 << 20}:${1 << 20}`,
      '--nofile=64:64',
      '--core=0:0',
    ]);
    expect(pairs(bwrapPart(argv), '--size').map(([size, flag]) => `${flag} ${size}`)).toEqual([
      `--tmpfs ${1 << 22}`,
      `--tmpfs ${1 << 22}`,
      `--tmpfs ${1 << 22}`,
    ]);
  });

  it('unshares every namespace, runs as nobody without capabilities, and dies with its parent', () => {
    const args = bwrapPart(bwrapArgv(policy(), ['/bin/true']));

    expect(args).toEqual(
      expect.arrayContaining([
        '--unshare-user',
        '--unshare-all',
        '--disable-userns',
        '--die-with-parent',
        '--new-session',
      ]),
    );
    expect(args.join(' ')).toContain('--uid 65534 --gid 65534');
    expect(args.join(' ')).toContain('--cap-drop ALL');
    expect(args.join(' ')).toContain('--proc /proc --dev /dev');
  });

  it('gives no network and no /etc without the grant, and both with it', () => {
    const closed = bwrapPart(bwrapArgv(policy(), ['/bin/true']));
    const open = bwrapPart(bwrapArgv(policy({ network: true }), ['/bin/true']));

    expect(closed).not.toContain('--share-net');
    expect(closed.filter((arg) => arg.startsWith('/etc'))).toEqual([]);
    expect(open).toContain('--share-net');
    expect(pairs(open, '--ro-bind-try').map(([source]) => source)).toEqual(
      expect.arrayContaining(['/etc/resolv.conf', '/etc/ssl']),
    );
  });

  it('mounts the system read-only first, then /proc, the tmpfs folders, and the policy mounts last', () => {
    const args = bwrapPart(
      bwrapArgv(policy({ tmpfs: ['/data'], writable: [{ source: '/srv/out', target: '/out' }] }), ['/bin/true']),
    );
    const at = (flag: string, value: string): number =>
      args.findIndex((arg, i) => arg === flag && args[i + 1] === value);

    expect(pairs(args, '--ro-bind-try').map(([source]) => source)).toEqual(expect.arrayContaining(['/usr', '/lib64']));
    expect(at('--ro-bind-try', '/usr')).toBeLessThan(at('--proc', '/proc'));
    expect(at('--proc', '/proc')).toBeLessThan(at('--tmpfs', '/tmp'));
    expect(at('--tmpfs', SANDBOX_HOME)).toBeLessThan(at('--tmpfs', '/data'));
    expect(at('--tmpfs', '/data')).toBeLessThan(at('--ro-bind', '/var/cache/skillhub/pkg'));
    expect(pairs(args, '--ro-bind')).toEqual([['/var/cache/skillhub/pkg', '/opt/pkg']]);
    expect(pairs(args, '--bind')).toEqual([['/srv/out', '/out']]);
    // The root and /dev are read-only once everything is mounted; the tmpfs folders on them stay writable.
    expect(args.filter((arg, i) => args[i - 1] === '--remount-ro')).toEqual(['/dev', '/']);
    expect(at('--remount-ro', '/')).toBeGreaterThan(at('--bind', '/srv/out'));
  });

  it('clears the environment and sets only the policy env, HOME on the tmpfs home and a default PATH', () => {
    const args = bwrapPart(bwrapArgv(policy({ env: { TOKEN: 'x', HOME: '/root' } }), ['/bin/true']));

    expect(args).toContain('--clearenv');
    expect(args.indexOf('--clearenv')).toBeLessThan(args.indexOf('--setenv'));
    expect(pairs(args, '--setenv')).toEqual([
      ['HOME', SANDBOX_HOME],
      ['PATH', '/usr/local/bin:/usr/bin:/bin'],
      ['TOKEN', 'x'],
    ]);
  });

  it('keeps a PATH the policy sets, and changes to its working directory', () => {
    const args = bwrapPart(bwrapArgv(policy({ env: { PATH: '/opt/pkg/bin' } }), ['/bin/true']));

    expect(pairs(args, '--setenv')).toContainEqual(['PATH', '/opt/pkg/bin']);
    expect(args.slice(-2)).toEqual(['--chdir', '/opt/pkg']);
  });

  it('uses the tools it is given', () => {
    const argv = bwrapArgv(policy(), ['/bin/true'], { env: '/e', prlimit: '/p', bwrap: '/b' });

    expect([argv[0], argv[2], argv[argv.indexOf('/b')]]).toEqual(['/e', '/p', '/b']);
  });

  it('refuses a policy it cannot enforce as written, listing every reason', () => {
    const bad = policy({
      readOnly: [{ source: 'relative/dir', target: '/opt/../etc' }],
      tmpfs: ['/'],
      env: { 'BAD-NAME': 'x', OK: 'a\0b' },
      limits: { ...DEFAULT_SANDBOX_LIMITS, cpuSeconds: 0 },
    });

    let error: unknown;
    try {
      bwrapArgv(bad, ['node']);
    } catch (caught) {
      error = caught;
    }

    expect(error).toBeInstanceOf(SandboxPolicyError);
    expect((error as SandboxPolicyError).code).toBe(SANDBOX_INVALID_POLICY);
    expect((error as SandboxPolicyError).reasons).toEqual([
      "the program 'node' is not a normalized absolute path",
      "the tmpfs '/' is not a normalized absolute path",
      "the mount source 'relative/dir' is not a normalized absolute path",
      "the mount target '/opt/../etc' is not a normalized absolute path",
      "'BAD-NAME' is not an environment variable name",
      'the value of OK contains a NUL character',
      'the limit cpuSeconds must be a positive integer',
    ]);
  });

  it('refuses an empty command', () => {
    expect(() => bwrapArgv(policy(), [])).toThrow('the command is empty');
  });
});

describe('bwrapLaunch', () => {
  it('keeps the environment off the command line, to be spawned with as the whole environment', () => {
    const launch = bwrapLaunch(policy({ env: { TOKEN: 'secret-value' } }), ['/bin/true']);
    const selfContained = bwrapArgv(policy({ env: { TOKEN: 'secret-value' } }), ['/bin/true']);

    expect(launch.env).toEqual({ HOME: SANDBOX_HOME, PATH: '/usr/local/bin:/usr/bin:/bin', TOKEN: 'secret-value' });
    expect(launch.argv[0]).toBe('/usr/bin/prlimit');
    expect(launch.argv.join(' ')).not.toContain('secret-value');
    expect(launch.argv).not.toContain('--clearenv');
    expect(launch.argv).not.toContain('--setenv');
    // Everything else is the same command line.
    const withoutEnv = selfContained.slice(2).filter((_, i, all) => !isEnvArgument(all, i));
    expect(launch.argv).toEqual(withoutEnv);
  });

  it('refuses the same policies', () => {
    expect(() => bwrapLaunch(policy({ cwd: 'relative' }), ['/bin/true'])).toThrow(SandboxPolicyError);
  });
});

/** `--clearenv`, and each `--setenv NAME VALUE` triple. */
const isEnvArgument = (args: string[], i: number): boolean =>
  args[i] === '--clearenv' || args[i] === '--setenv' || args[i - 1] === '--setenv' || args[i - 2] === '--setenv';

describe('nodeOptionsFor', () => {
  it('caps the V8 heap at three quarters of the memory limit', () => {
    expect(nodeOptionsFor({ ...DEFAULT_SANDBOX_LIMITS, memoryBytes: 1024 * 1024 * 1024 })).toBe(
      '--max-old-space-size=768',
    );
  });
});

describe('isSystemPath', () => {
  it('tells the folders the sandbox always mounts from the rest', () => {
    expect([
      isSystemPath('/usr'),
      isSystemPath('/usr/bin/node'),
      isSystemPath('/usrx'),
      isSystemPath('/opt/x'),
    ]).toEqual([true, true, false, false]);
  });
});
