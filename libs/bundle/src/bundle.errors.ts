/** The errors `readBundle` and `writeBundle` throw, each of a kind (the HTTP layer's status). */
import { DomainError, type Problem } from '@skillhub/errors';
import type { BundleLimits } from './bundle.types';

export const BUNDLE_TOO_LARGE = 'BUNDLE.TOO_LARGE';
export const BUNDLE_INVALID = 'BUNDLE.INVALID';

/** The path of a problem that concerns the whole archive rather than one entry. */
export const ARCHIVE_PATH = '';

export const archiveProblem = (message: string): Problem => ({ path: ARCHIVE_PATH, message, severity: 'error' });

/** Thrown before or while decompressing, so an oversized bundle never fully lands in memory. */
export class BundleTooLargeError extends DomainError {
  constructor(
    message: string,
    readonly limit: keyof BundleLimits,
    readonly max: number,
  ) {
    super('too-large', BUNDLE_TOO_LARGE, message, [], { limit, max });
  }
}

/** Carries every problem found, so a publisher can fix them all in one round. */
export class BundleInvalidError extends DomainError {
  constructor(problems: readonly Problem[]) {
    super('invalid', BUNDLE_INVALID, summarize(problems), problems);
  }
}

const describe = (problem: Problem): string =>
  problem.path === ARCHIVE_PATH ? problem.message : `'${problem.path}': ${problem.message}`;

const summarize = (problems: readonly Problem[]): string => {
  if (problems.length === 0) return 'invalid bundle';
  if (problems.length === 1) return `invalid bundle: ${describe(problems[0])}`;
  return `invalid bundle: ${problems.length} problems, the first: ${describe(problems[0])}`;
};
