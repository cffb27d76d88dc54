import { DomainError } from '@skillhub/errors';

/** A prober built with options that cannot work (a bad base URL, a negative timeout): a start-up mistake. */
export class PackageProbeConfigError extends DomainError {
  constructor(message: string) {
    super('internal', 'PACKAGE_PROBE.CONFIG', message);
  }
}
