/** Field rules the formats share, and the values some formats take from the publish request. */
import type { Problem } from '@skillhub/errors';
import type { StringRule } from './field-reader';
import { NAMESPACE_SLUG_PATTERN, slugify } from './slugify';
import type { ParseContext } from './skill.model';

/** Kazma skill names and SwarmKit ids. */
export const IDENTIFIER_RULE: StringRule = {
  max: 64,
  pattern: /^[a-z][a-z0-9-]*$/,
  patternHint: 'kebab-case: a lowercase letter, then lowercase letters, digits or "-"',
};

/** Strict `X.Y.Z`: no leading `v`, no leading zeros, no pre-release or build suffix. */
export const STRICT_VERSION = /^(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)$/;

export const VERSION_RULE: StringRule = {
  max: 64,
  pattern: STRICT_VERSION,
  patternHint: 'a version X.Y.Z (three numbers, no "v", no pre-release)',
};

/** The namespace an author string publishes under, or null when no valid slug can be made of it. */
export function namespaceOf(author: string): string | null {
  const namespace = slugify(author);
  return NAMESPACE_SLUG_PATTERN.test(namespace) ? namespace : null;
}

/** Author and namespace from the publish request, for formats whose files name no author. */
export function publisherFromContext(
  context: ParseContext,
  formatName: string,
  problems: Problem[],
): { author: string; namespace: string } | null {
  const author = context.namespace?.trim();
  if (!author) {
    problems.push(requestError('namespace', `${formatName} skills carry no author: the publisher's namespace is needed`));
    return null;
  }
  const namespace = namespaceOf(author);
  if (namespace === null) {
    problems.push(requestError('namespace', `Namespace ${JSON.stringify(author.slice(0, 60))} is not a valid namespace`));
    return null;
  }
  return { author, namespace };
}

/** The version from the publish request, for formats whose files carry none. */
export function versionFromContext(context: ParseContext, hint: string, problems: Problem[]): string | null {
  const version = context.version;
  if (version === undefined || version === '') {
    problems.push(requestError('version', hint));
    return null;
  }
  if (version.length > 64 || !STRICT_VERSION.test(version)) {
    problems.push(requestError('version', `Version ${JSON.stringify(version.slice(0, 64))} must be X.Y.Z (three numbers, no "v", no pre-release)`));
    return null;
  }
  return version;
}

/** Problems with the publish request point at the request's field, not at a file. */
function requestError(field: 'namespace' | 'version', message: string): Problem {
  return { path: field, message, severity: 'error' };
}
