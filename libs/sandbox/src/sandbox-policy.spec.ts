import {
  DEFAULT_SANDBOX_LIMITS,
  SANDBOX_HOME,
  SANDBOX_TOOLS,
  bwrapLaunch,
  isSystemPath,
  nodeOptionsFor,
  type SandboxPolicy,
} from './sandbox-policy';
import { PROXY_ENV, SANDBOX_PROXY_SOCKET } from './network-bridge';
import { SANDBOX_INVALID_POLICY, SandboxPolicyError } from './sandbox.errors';

const policy = (overrides: Partial<SandboxPolicy> = {}): SandboxPolicy => ({
  network: null,
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

/** The whole command as it runs: the command line with bwrap's arguments (read from fd 3) in place of `--args 3`. */
const argvOf = (p: SandboxPolicy, program: string[] = ['/bin/true'], launch = {}, tools = SANDBOX_TOOLS): string[] =>
  whole(bwrapLaunch(p, program, tools, launch));
const whole = ({ argv, bwrapArgs }: { argv: string[]; bwrapArgs: string[] }): string[] => [
  ...argv.slice(0, argv.indexOf('--args')),
  ...bwrapArgs,
  ...argv.slice(argv.indexOf('--args') + 2),
];

const NETWORK = {
  proxySocket: '/tmp/skillhub-egress-x/abc.sock',
  node: { path: '/opt/node/bin/node', mounts: [{ source: '/opt/node/bin/node', target: '/opt/node/bin/node' }] },
};

describe('bwrapLaunch', () => {
  it('starts bwrap under prlimit, its own arguments on fd 3, and runs the program after the last --', () => {
    const launch = bwrapLaunch(policy(), ['/usr/bin/node', '/opt/pkg/index.js', '--flag']);
    const argv = whole(launch);

    // The mounts are not in the process list: bwrap reads its options from fd 3.
    const bwrapAt = launch.argv.indexOf('/usr/bin/bwrap');
    expect(launch.argv.slice(bwrapAt, bwrapAt + 4)).toEqual(['/usr/bin/bwrap', '--args', '3', '--']);
    expect(launch.argv.join(' ')).not.toContain('/var/cache/skillhub/pkg');
    expect(launch.bwrapArgs).toEqual(expect.arrayContaining(['/var/cache/skillhub/pkg']));
    expect(argv[0]).toBe('/usr/bin/prlimit');
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
      processes: 32,
      cpuCores: 1,
    };
    const argv = argvOf(policy({ limits }));
    const prlimit = argv.slice(1, argv.indexOf('--'));

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

  it('run by anyone else, unshares every namespace and runs as nobody without capabilities, and dies with its parent', () => {
    const args = bwrapPart(argvOf(policy()));

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

  it('never shares the host network: with a grant, only the proxy socket, the TLS roots and the bridge in front of the program', () => {
    const closed = argvOf(policy());
    const open = argvOf(policy({ network: NETWORK }), ['/usr/bin/python3', 'server.py']);
    const openArgs = bwrapPart(open);

    for (const argv of [closed, open]) expect(argv).not.toContain('--share-net');
    expect(bwrapPart(closed).filter((arg) => arg.startsWith('/etc'))).toEqual([]);
    expect(pairs(openArgs, '--ro-bind-try').map(([source]) => source)).toEqual(expect.arrayContaining(['/etc/ssl']));
    expect(openArgs).not.toContain('/etc/resolv.conf');
    expect(pairs(openArgs, '--ro-bind')).toEqual(
      expect.arrayContaining([
        [NETWORK.proxySocket, SANDBOX_PROXY_SOCKET],
        ['/opt/node/bin/node', '/opt/node/bin/node'],
      ]),
    );
    // The bridge (Node, as pid 1) runs the program as its child.
    const program = open.slice(open.indexOf('/opt/node/bin/node', open.indexOf('--chdir')));
    expect(program[1]).toBe('-e');
    expect(program.slice(-2)).toEqual(['/usr/bin/python3', 'server.py']);
    expect(bwrapLaunch(policy({ network: NETWORK }), ['/bin/true']).env).toMatchObject({ ...PROXY_ENV, NO_PROXY: '' });
    expect(bwrapLaunch(policy(), ['/bin/true']).env).not.toHaveProperty('HTTPS_PROXY');
  });

  it("run by root, mounts as root and runs the program through setpriv as the sandbox's own user, after joining its cgroups", () => {
    const user = { uid: 1800000001, gid: 1800000001 };
    const argv = argvOf(policy(), ['/bin/true'], {
      user,
      cgroupProcs: ['/sys/fs/cgroup/pids/x/cgroup.procs', '/sys/fs/cgroup/memory/x/cgroup.procs'],
    });
    const args = bwrapPart(argv);

    expect(argv.slice(0, 2)).toEqual(['/bin/sh', '-c']);
    expect(argv.slice(3, 8)).toEqual([
      'sh',
      '2',
      '/sys/fs/cgroup/pids/x/cgroup.procs',
      '/sys/fs/cgroup/memory/x/cgroup.procs',
      '/usr/bin/prlimit',
    ]);
    // No user namespace (it would map the program to root); every other namespace. bwrap's reaper stays
    // pid 1: the program's own parent-death signal is cleared when setpriv changes its user.
    expect(args).not.toContain('--unshare-user');
    expect(args).not.toContain('--as-pid-1');
    expect(args).toEqual(
      expect.arrayContaining(['--unshare-pid', '--unshare-net', '--unshare-ipc', '--unshare-uts', '--die-with-parent']),
    );
    // bwrap keeps only what setpriv needs to change user, and setpriv drops it with everything else.
    expect(args.join(' ')).toContain('--cap-drop ALL --cap-add CAP_SETUID --cap-add CAP_SETGID');
    expect(argv.slice(-8)).toEqual([
      '/usr/bin/setpriv',
      '--reuid=1800000001',
      '--regid=1800000001',
      '--clear-groups',
      '--inh-caps=-all',
      '--bounding-set=-all',
      '--',
      '/bin/true',
    ]);
    expect(argv).toContain(`--nproc=${DEFAULT_SANDBOX_LIMITS.processes}:${DEFAULT_SANDBOX_LIMITS.processes}`);
    // Without a user of its own, RLIMIT_NPROC would count the caller's processes too: not set.
    expect(argvOf(policy()).some((arg) => arg.startsWith('--nproc'))).toBe(false);
  });

  it('makes the folders above its mounts passable, mounts the system read-only, then /proc, the tmpfs folders, and the policy mounts last', () => {
    const args = bwrapPart(argvOf(policy({ tmpfs: ['/data'], writable: [{ source: '/srv/out', target: '/out' }] })));
    const at = (flag: string, value: string): number =>
      args.findIndex((arg, i) => arg === flag && args[i + 1] === value);

    expect(pairs(args, '--ro-bind-try').map(([source]) => source)).toEqual(expect.arrayContaining(['/usr', '/lib64']));
    expect(at('--ro-bind-try', '/usr')).toBeLessThan(at('--proc', '/proc'));
    expect(at('--proc', '/proc')).toBeLessThan(at('--tmpfs', '/tmp'));
    expect(at('--tmpfs', SANDBOX_HOME)).toBeLessThan(at('--tmpfs', '/data'));
    expect(at('--tmpfs', '/data')).toBeLessThan(at('--ro-bind', '/var/cache/skillhub/pkg'));
    expect(pairs(args, '--ro-bind')).toEqual([['/var/cache/skillhub/pkg', '/opt/pkg']]);
    expect(pairs(args, '--bind')).toEqual([['/srv/out', '/out']]);
    // bwrap run by root would make the folders above them 0700, closed to the sandbox's user: made 0755
    // first, each after the tmpfs it lies on and before the mount it is for.
    expect(pairs(args, '--dir').map(([folder]) => folder)).toEqual(['/home', '/opt']);
    expect(args[args.indexOf('/opt') - 2]).toBe('0755');
    expect(at('--tmpfs', '/tmp')).toBeLessThan(at('--dir', '/home'));
    expect(at('--dir', '/home')).toBeLessThan(at('--tmpfs', SANDBOX_HOME));
    expect(at('--dir', '/opt')).toBeLessThan(at('--ro-bind', '/var/cache/skillhub/pkg'));
    const underTmp = bwrapPart(argvOf(policy({ readOnly: [{ source: '/srv/work/pkg', target: '/tmp/work/pkg' }] })));
    const position = (flag: string, value: string): number =>
      underTmp.findIndex((arg, i) => arg === flag && underTmp[i + 1] === value);
    expect(position('--dir', '/tmp/work')).toBeGreaterThan(position('--tmpfs', '/tmp'));
    // The root and /dev are read-only once everything is mounted; the tmpfs folders on them stay writable.
    expect(args.filter((arg, i) => args[i - 1] === '--remount-ro')).toEqual(['/dev', '/']);
    expect(at('--remount-ro', '/')).toBeGreaterThan(at('--bind', '/srv/out'));
  });

  it('keeps the environment off the command line: the policy env, HOME on the tmpfs home and a default PATH', () => {
    const launch = bwrapLaunch(policy({ env: { TOKEN: 'secret-value', HOME: '/root' } }), ['/bin/true']);

    expect(launch.env).toEqual({ HOME: SANDBOX_HOME, PATH: '/usr/local/bin:/usr/bin:/bin', TOKEN: 'secret-value' });
    expect(whole(launch).join(' ')).not.toContain('secret-value');
  });

  it('keeps a PATH the policy sets, and changes to its working directory', () => {
    const launch = bwrapLaunch(policy({ env: { PATH: '/opt/pkg/bin' } }), ['/bin/true']);

    expect(launch.env.PATH).toBe('/opt/pkg/bin');
    expect(bwrapPart(whole(launch)).slice(-2)).toEqual(['--chdir', '/opt/pkg']);
  });

  it('uses the tools it is given, and setpriv only from a folder the sandbox has', () => {
    const tools = { prlimit: '/p', bwrap: '/b', setpriv: '/usr/local/bin/setpriv', sh: '/sh' };
    const launch = { user: { uid: 2, gid: 2 }, cgroupProcs: ['/c'] };
    const argv = argvOf(policy(), ['/bin/true'], launch, tools);

    expect([argv[0], argv[6], argv[argv.indexOf('/b')]]).toEqual(['/sh', '/p', '/b']);
    expect(argv).toContain('/usr/local/bin/setpriv');
    expect(() => bwrapLaunch(policy(), ['/bin/true'], { ...tools, setpriv: '/opt/setpriv' }, launch)).toThrow(
      /setpriv must lie in a system folder/,
    );
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
      bwrapLaunch(bad, ['node']);
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
    expect(() => bwrapLaunch(policy(), [])).toThrow('the command is empty');
  });

  it('refuses the same policies', () => {
    expect(() => bwrapLaunch(policy({ cwd: 'relative' }), ['/bin/true'])).toThrow(SandboxPolicyError);
  });
});

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
