/** The live tool probe (C13): a pinned MCP server started in the sandbox, its tools, prompts and resources listed. */
export { LIVE_PROBE_DEFAULTS, probeLiveServer, type LiveProbeOptions } from './live-probe';
export {
  BUNDLE_MOUNT,
  PACKAGE_MOUNT,
  ServerLaunchError,
  bundleFileServerLaunch,
  inSkillFolder,
  npmServerLaunch,
  pypiServerLaunch,
  serverSandboxPolicy,
  type BundleFileServerTarget,
  type PypiServerTarget,
  type LiveProbeTarget,
  type NpmServerTarget,
  type ServerLaunch,
  type ServerPolicyOptions,
} from './server-launch';
export { extractBundle, type ExtractedBundle } from './extract-bundle';
export { NEEDS_NETWORK, plainText, probeFailureDetail, type ProbeFailure } from './probe-failure';
export {
  openRemoteConnection,
  type RemoteAccess,
  type RemoteConnection,
  type RemoteServerTarget,
} from './remote-connection';
