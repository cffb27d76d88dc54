/** The live tool probe (C13): a pinned MCP server started in the sandbox, its tools, prompts and resources listed. */
export {
  BUNDLE_MOUNT,
  LIVE_PROBE_DEFAULTS,
  PACKAGE_MOUNT,
  probeLiveServer,
  type BundleFileServerTarget,
  type LiveProbeOptions,
  type LiveProbeTarget,
  type NpmServerTarget,
} from './live-probe';
export { extractBundle, type ExtractedBundle } from './extract-bundle';
export { probeFailureDetail, type ProbeFailure } from './probe-failure';
