/**
 * Kazma names a skill `kazma-hub://<author>/<name>[@<version>]`, with the manifest's raw author
 * ("Kazma Team"), and sends that id literally inside the path, percent-encoded as Python's HTTP
 * clients do (`kazma-hub://Kazma%20Team/calendar`); its `status` sends a submission id in the same
 * place, and a `KAZMA_HUB_URL` ending in a slash makes every path start with `//`. This rewrites
 * such paths onto the hub's own routes before routing, so each is answered by one handler.
 */
import type { NextFunction, Request, Response } from 'express';
import { NAMESPACE_SLUG_PATTERN, slugify } from '@skillhub/skill-formats';

const PREFIX = '/api/v1/skills/';
/** The author is free text up to the next slash (the name is kebab-case, so it ends the author). */
const KAZMA_ID =
  /^kazma-hub:\/\/([^/]{1,128})\/([a-z0-9][a-z0-9-]{0,63})(?:@([0-9A-Za-z.+-]{1,64}))?(\/download|\/certification)?\/?$/;
const SUBMISSION_STATUS = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/certification$/i;
/** A base URL with a trailing slash, joined to `/api/v1/…` by string concatenation. */
const DOUBLED_LEADING_SLASHES = /^\/{2,}/;

export function rewriteKazmaPath(url: string): string | null {
  const collapsed = url.replace(DOUBLED_LEADING_SLASHES, '/');
  return rewriteKazmaId(collapsed) ?? (collapsed === url ? null : collapsed);
}

function rewriteKazmaId(url: string): string | null {
  if (!url.startsWith(PREFIX)) return null;
  const q = url.indexOf('?');
  const rawPath = url.slice(PREFIX.length, q === -1 ? undefined : q);
  if (rawPath.length > 400) return null;
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    return null;
  }
  const query = q === -1 ? '' : url.slice(q);
  const submission = SUBMISSION_STATUS.exec(path);
  if (submission) return `/api/v1/submissions/${submission[1]!.toLowerCase()}/certification${query}`;
  const m = KAZMA_ID.exec(path);
  if (!m) return null;
  const [, author, name, version, suffix] = m;
  // The namespace a Kazma manifest's author is published under (see the Kazma manifest parser).
  const namespace = slugify(author!);
  if (!NAMESPACE_SLUG_PATTERN.test(namespace)) return null;
  const base = `${PREFIX}${namespace}/${name}${version ? `/versions/${encodeURIComponent(version)}` : ''}`;
  if (suffix === '/download') return version ? `${base}/bundle${query}` : null;
  return base + (suffix ?? '') + query;
}

export function kazmaPathsMiddleware(req: Request, _res: Response, next: NextFunction): void {
  const rewritten = rewriteKazmaPath(req.url);
  if (rewritten) req.url = rewritten;
  next();
}
