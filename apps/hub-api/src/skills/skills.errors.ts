import { DomainError, type Problem } from '@skillhub/errors';

export class InvalidManifestError extends DomainError {
  constructor(problems: readonly Problem[]) {
    const errors = problems.filter((p) => p.severity === 'error').length;
    super(
      'unprocessable',
      'SKILL.INVALID_MANIFEST',
      `The skill has ${errors} problem${errors === 1 ? '' : 's'}; see errors.`,
      problems,
    );
  }
}

export class SkillVersionExistsError extends DomainError {
  constructor(ref: string, existingSha256: string) {
    super(
      'conflict',
      'SKILL.VERSION_EXISTS',
      `${ref} is already published with other bytes; versions are immutable, publish a new version.`,
      [],
      {
        existing_bundle_sha256: existingSha256,
      },
    );
  }
}

export class SkillNotFoundError extends DomainError {
  constructor(ref: string) {
    super('not-found', 'SKILL.NOT_FOUND', `No skill ${ref} on this hub.`);
  }
}

export class NamespaceUnclaimedError extends DomainError {
  constructor(slug: string) {
    super(
      'forbidden',
      'NAMESPACE.FORBIDDEN',
      `Namespace "${slug}" is not claimed yet, and this token may not claim it (it needs the "claim" scope, or ask the operator).`,
    );
  }
}

export class MissingBodyError extends DomainError {
  constructor() {
    super(
      'unsupported-media-type',
      'BUNDLE.UNSUPPORTED_MEDIA_TYPE',
      'Send the bundle as the body (Content-Type: application/gzip) or as the multipart field "bundle".',
      [{ path: 'body', message: 'no bundle found in the request', severity: 'error' }],
    );
  }
}

/** A claim publishes the one skill its submission holds; a workspace holds several. */
export class WorkspaceClaimError extends DomainError {
  constructor() {
    super(
      'unprocessable',
      'SKILL.INVALID_MANIFEST',
      'A submission is claimed with the one skill it holds; publish a SwarmKit workspace with POST /api/v1/skills.',
      [{ path: 'body', message: 'the bundle is a workspace of several skills', severity: 'error' }],
    );
  }
}
