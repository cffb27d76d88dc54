/** Where links and snippets a response carries point: the hub's public URL as configured, else as the client reached it. */
import type { Request } from 'express';
import type { HubConfig } from '@skillhub/config';

/** A Host header fit to put in a link: a name or an IP literal, and a port, nothing else. */
const SANE_HOST = /^[A-Za-z0-9.-]{1,253}(:\d{1,5})?$|^\[[0-9A-Fa-f:.]{2,45}\](:\d{1,5})?$/;

/** `HUB_PUBLIC_URL`, else the request's own origin when its Host is sane, else the local listener. */
export function publicOrigin(req: Request, config: Pick<HubConfig, 'HUB_PUBLIC_URL' | 'PORT'>): string {
  if (config.HUB_PUBLIC_URL) return config.HUB_PUBLIC_URL.replace(/\/+$/, '');
  const host = req.get('host') ?? '';
  return SANE_HOST.test(host) ? `${req.protocol}://${host}` : `http://127.0.0.1:${config.PORT}`;
}
