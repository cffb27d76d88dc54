/** Runs untrusted programs (skill MCP servers) under bubblewrap with a pure, inspectable policy. */
export { refusedAddress } from './address-policy';
export { egressFetch, EgressRefusedError, type EgressFetch, type EgressFetchOptions } from './egress-fetch';
export {
  EgressProxy,
  SANDBOX_PROXY_PORT,
  matchesDomain,
  parseAuthority,
  type EgressEvent,
  type EgressProxyOptions,
  type HostLookup,
} from './egress-proxy';
export { PROXY_ENV, SANDBOX_PROXY_SOCKET, SANDBOX_PROXY_URL } from './network-bridge';
export { cgroupLayout, cgroupSupport, type CgroupSupport } from './sandbox-cgroup';
export { SANDBOX_UID_BASE, sandboxUser, unreachableMounts, type SandboxUser } from './sandbox-identity';
export {
  DEFAULT_SANDBOX_LIMITS,
  DEFAULT_SANDBOX_PATH,
  NETWORK_FILES,
  SANDBOX_HOME,
  SANDBOX_HOSTNAME,
  SANDBOX_TOOLS,
  SANDBOX_UID,
  SYSTEM_FOLDERS,
  bwrapLaunch,
  isSystemPath,
  nodeOptionsFor,
  type SandboxLaunch,
  type SandboxLaunchOptions,
  type SandboxLimits,
  type SandboxMount,
  type SandboxNetwork,
  type SandboxPolicy,
  type SandboxTools,
} from './sandbox-policy';
export {
  nodeInSandbox,
  runSandboxed,
  sandboxAvailable,
  sandboxEnforcement,
  spawnSandboxed,
  type RunSandboxedOptions,
  type SandboxAvailability,
  type SandboxExit,
  type SandboxRunResult,
  type SandboxedProcess,
} from './sandbox-launcher';
export { SandboxStdioTransport, type SandboxStdioTransportOptions } from './sandbox-stdio.transport';
export { SANDBOX_INVALID_POLICY, SandboxPolicyError } from './sandbox.errors';
