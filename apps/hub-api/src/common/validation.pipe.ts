import { type ArgumentMetadata, ValidationPipe, type ValidationError } from '@nestjs/common';
import { DomainError, type Problem } from '@skillhub/errors';

const invalid = (problems: Problem[]) =>
  new DomainError('invalid', 'VALIDATION', 'The request has invalid fields.', problems);

/** Request DTO validation: unknown fields refused, every failing field named in the problem body. */
class RequestValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && this.toValidate(metadata)) {
      // A bundle route's parser took these bytes: this route reads JSON only.
      if (Buffer.isBuffer(value)) {
        throw new DomainError(
          'unsupported-media-type',
          'REQUEST.UNSUPPORTED_MEDIA_TYPE',
          'This route reads a JSON body.',
          [{ path: 'content-type', message: 'send the body as application/json', severity: 'error' }],
        );
      }
      // A list or a scalar would be validated as an object whose fields are "0", "1"...: say what it
      // is. No body at all is validated as an empty one, so each missing field is named.
      if (value !== undefined && !isObject(value)) {
        const got = Array.isArray(value) ? 'a list' : value === null ? 'null' : `a ${typeof value}`;
        throw invalid([{ path: 'body', message: `the body must be a JSON object, got ${got}`, severity: 'error' }]);
      }
    }
    return super.transform(value, metadata);
  }
}

export function createValidationPipe(): ValidationPipe {
  return new RequestValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    exceptionFactory: (errors) => invalid(flatten(errors, '')),
  });
}

const isObject = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value);

function flatten(errors: ValidationError[], parent: string): Problem[] {
  return errors.flatMap((e) => {
    const path = parent ? `${parent}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((message) => ({ path, message, severity: 'error' as const }));
    return [...own, ...flatten(e.children ?? [], path)];
  });
}
