import type { Request } from 'express';

/** The caller's address: the socket's, or X-Forwarded-For's when TRUST_PROXY says a proxy sets it. */
export const clientAddress = (req: Request): string => (req.ip ?? req.socket.remoteAddress ?? 'unknown').slice(0, 64);
