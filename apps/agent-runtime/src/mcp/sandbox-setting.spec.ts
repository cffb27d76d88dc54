import { DEFAULT_SANDBOX_LIMITS } from '@skillhub/sandbox';
import { noSandbox, sandboxLimits, sandboxNotice } from './sandbox-setting';

const missing = { ok: false as const, reason: 'bwrap is not installed at /usr/bin/bwrap' };
const enforcement = 'control groups, own user';
const limits = sandboxLimits({ memory_mib: 512, cpu_seconds: 600, processes: 64, cpu_cores: 1, tmpfs_mib: 32 });

describe('the sandbox setting', () => {
  it('limits memory, processes, CPU and scratch space as configured', () => {
    expect(limits).toEqual({
      ...DEFAULT_SANDBOX_LIMITS,
      memoryBytes: 512 * 1024 * 1024,
      cpuSeconds: 600,
      processes: 64,
      cpuCores: 1,
      tmpfsBytes: 32 * 1024 * 1024,
    });
  });

  it('keeps skill servers from starting without bubblewrap, and says so as an error', () => {
    const setting = { mode: 'on' as const, availability: missing, limits, enforcement };

    expect(noSandbox(setting)).toBe(
      'no sandbox on this machine (bwrap is not installed at /usr/bin/bwrap): install bubblewrap (Debian: apt-get install bubblewrap)',
    );
    expect(sandboxNotice(setting)).toMatchObject({
      level: 'error',
      message: expect.stringContaining('Skill servers will not start'),
    });
  });

  it('warns at every start when the sandbox is off, whether or not bubblewrap is there', () => {
    for (const availability of [missing, { ok: true as const }]) {
      expect(sandboxNotice({ mode: 'off', availability, limits, enforcement })).toMatchObject({
        level: 'warn',
        message: expect.stringContaining('sandbox: off. Skill servers run as plain processes'),
      });
    }
  });

  it('says what each server gets when it is on', () => {
    expect(sandboxNotice({ mode: 'on', availability: { ok: true }, limits, enforcement })).toEqual({
      level: 'log',
      message:
        'skill servers run in the sandbox, each with at most 512 MiB, 64 processes, 1 CPU core and 600 CPU seconds per process, network only through the egress proxy (control groups, own user)',
    });
  });
});
