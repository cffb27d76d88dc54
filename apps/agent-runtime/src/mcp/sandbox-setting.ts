/**
 * The sandbox skill servers run in, as this runtime can provide it: the config's `sandbox` mode,
 * whether bubblewrap works on this machine, and the limits every sandboxed server gets. Skill
 * servers never start outside it unless the operator says `sandbox: off`, which is said loudly at
 * every start.
 */
import {
  DEFAULT_SANDBOX_LIMITS,
  type SandboxAvailability,
  type SandboxLimits,
  type SandboxTools,
} from '@skillhub/sandbox';
import type { RuntimeConfig } from '../config/runtime-config';
import type { ServerEgress } from './server-egress';

const MIB = 1024 * 1024;

export interface SandboxSetting {
  mode: RuntimeConfig['sandbox'];
  availability: SandboxAvailability;
  limits: SandboxLimits;
  /** How the limits are enforced here (control groups, own user), as sandboxEnforcement() says. */
  enforcement: string;
  /** The egress proxies of servers granted network. */
  egress: ServerEgress;
  /** Where prlimit, bwrap, setpriv and sh are (Debian's paths by default). */
  tools?: SandboxTools;
}

export const sandboxLimits = (config: RuntimeConfig['sandbox_limits']): SandboxLimits => ({
  ...DEFAULT_SANDBOX_LIMITS,
  memoryBytes: config.memory_mib * MIB,
  cpuSeconds: config.cpu_seconds,
  processes: config.processes,
  cpuCores: config.cpu_cores,
  tmpfsBytes: config.tmpfs_mib * MIB,
});

/** Why a server that must run in the sandbox cannot start here; null when it can. */
export const noSandbox = (setting: Pick<SandboxSetting, 'availability'>): string | null =>
  setting.availability.ok
    ? null
    : `no sandbox on this machine (${setting.availability.reason}): install bubblewrap (Debian: apt-get install bubblewrap)`;

/** What to say at start about the sandbox, and how loudly. */
export function sandboxNotice(setting: Pick<SandboxSetting, 'mode' | 'availability' | 'limits' | 'enforcement'>): {
  level: 'warn' | 'error' | 'log';
  message: string;
} {
  if (setting.mode === 'off') {
    return {
      level: 'warn',
      message:
        'sandbox: off. Skill servers run as plain processes with this machine’s files, network and processes in reach; only their environment is limited. Set sandbox: on once bubblewrap is installed.',
    };
  }
  const missing = noSandbox(setting);
  if (missing) {
    return {
      level: 'error',
      message: `${missing}. Skill servers will not start; set sandbox: off in the runtime config to run them without one (not recommended).`,
    };
  }
  const { limits } = setting;
  return {
    level: 'log',
    message: `skill servers run in the sandbox, each with at most ${limits.memoryBytes / MIB} MiB, ${limits.processes} processes, ${limits.cpuCores} CPU ${limits.cpuCores === 1 ? 'core' : 'cores'} and ${limits.cpuSeconds} CPU seconds per process, network only through the egress proxy (${setting.enforcement})`,
  };
}
