import type { Request } from 'express';

/**
 * The bundle a request carries, however it was sent: the one file of the multipart field `bundle`
 * (BundleUploadInterceptor), or else the raw `application/gzip` body. Null when neither holds a
 * byte, so an empty upload reads as no upload whichever way it came.
 */
export function uploadedBundle(req: Request, file: Express.Multer.File | undefined): Buffer | null {
  if (file?.buffer?.length) return file.buffer;
  if (Buffer.isBuffer(req.body) && req.body.length) return req.body;
  return null;
}
