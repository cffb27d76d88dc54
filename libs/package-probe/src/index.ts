export { PackageProber, PACKAGE_PROBER_DEFAULTS, type PackageProberOptions } from './package-prober';
export type { ProbeOutcome, ProbeResult } from './probe-result';
export { PackageProbeConfigError } from './package-probe.errors';
