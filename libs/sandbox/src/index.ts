/** Runs untrusted programs (skill MCP servers) under bubblewrap with a pure, inspectable policy. */
export {
  DEFAULT_SANDBOX_LIMITS,
  DEFAULT_SANDBOX_PATH,
  NETWORK_FILES,
  SANDBOX_HOME,
  SANDBOX_HOSTNAME,
  SANDBOX_TOOLS,
  SANDBOX_UID,
  SYSTEM_FOLDERS,
  bwrapArgv,
  bwrapLaunch,
  isSystemPath,
  nodeOptionsFor,
  type SandboxLaunch,
  type SandboxLimits,
  type SandboxMount,
  type SandboxPolicy,
  type SandboxTools,
} from './sandbox-policy';
export {
  nodeInSandbox,
  runSandboxed,
  sandboxAvailable,
  sandboxedCommand,
  spawnSandboxed,
  type RunSandboxedOptions,
  type SandboxAvailability,
  type SandboxExit,
  type SandboxRunResult,
  type SandboxedCommand,
  type SandboxedProcess,
} from './sandbox-launcher';
export { SandboxStdioTransport, type SandboxStdioTransportOptions } from './sandbox-stdio.transport';
export { SANDBOX_INVALID_POLICY, SandboxPolicyError } from './sandbox.errors';
