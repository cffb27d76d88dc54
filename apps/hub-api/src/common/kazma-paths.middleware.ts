/**
 * Kazma names a skill `kazma-hub://<author>/<name>[@<version>]` and sends that id
 * literally inside the path; its `status` sends a submission id in the same place.
 * This rewrites such paths (raw or percent-encoded) onto the hub's own routes before
 * routing, so each is answered by one handler.
 */
import type { NextFunction, Request, Response } from 'express';

const PREFIX = '/api/v1/skills/';
const KAZMA_ID =
  /^kazma-hub:\/\/([a-z0-9][a-z0-9-]{0,38})\/([a-z0-9][a-z0-9-]{0,63})(?:@([0-9A-Za-z.+-]{1,64}))?(\/download|\/certification)?\/?$/;
const SUBMISSION_STATUS = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/certification$/i;

export function rewriteKazmaPath(url: string): string | null {
  if (!url.startsWith(PREFIX)) return null;
  const q = url.indexOf('?');
  const rawPath = url.slice(PREFIX.length, q === -1 ? undefined : q);
  if (rawPath.length > 300) return null;
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
  const base = `${PREFIX}${author}/${name}${version ? `/versions/${encodeURIComponent(version)}` : ''}`;
  if (suffix === '/download') return version ? `${base}/bundle${query}` : null;
  return base + (suffix ?? '') + query;
}

export function kazmaPathsMiddleware(req: Request, _res: Response, next: NextFunction): void {
  const rewritten = rewriteKazmaPath(req.url);
  if (rewritten) req.url = rewritten;
  next();
}
