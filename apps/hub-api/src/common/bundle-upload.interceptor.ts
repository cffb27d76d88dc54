import { BadRequestException, type CallHandler, type ExecutionContext, Injectable } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import type { Observable } from 'rxjs';
import { DomainError } from '@skillhub/errors';

export const BUNDLE_FIELD = 'bundle';

/**
 * A bundle sent as the multipart field `bundle`. multer's refusals (another field, a form cut
 * short, no boundary) become problems naming the part of the request at fault; only the upload is
 * wrapped, so the route's own errors pass as they are.
 */
@Injectable()
export class BundleUploadInterceptor extends FileInterceptor(BUNDLE_FIELD) {
  override async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    try {
      return await super.intercept(context, next);
    } catch (error) {
      if (!(error instanceof BadRequestException)) throw error;
      const field = /boundary/i.test(error.message)
        ? 'content-type'
        : /field/i.test(error.message)
          ? BUNDLE_FIELD
          : 'body';
      throw new DomainError('invalid', 'REQUEST.INVALID', `The multipart upload was refused: ${error.message}.`, [
        {
          path: field,
          message: `send the bundle as the one file of the multipart field "${BUNDLE_FIELD}"`,
          severity: 'error',
        },
      ]);
    }
  }
}
