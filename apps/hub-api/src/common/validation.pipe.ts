import { type ArgumentMetadata, type Type, ValidationPipe, type ValidationError } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { DomainError, type Problem } from '@skillhub/errors';

const invalid = (problems: Problem[]) =>
  new DomainError('invalid', 'VALIDATION', 'The request has invalid fields.', problems);

/** Valid queries remembered per DTO class, at most; past that the class's memory starts again. */
const VALID_QUERIES_HELD = 1_000;
/** Longer queries (as JSON) are validated every time. */
const MAX_REMEMBERED_QUERY = 512;

/**
 * Request DTO validation: unknown fields refused, every failing field named in the problem body.
 * A query string found valid once is only transformed when it comes again: its verdict depends
 * on nothing else, and class-validator was a third of a cached badge's cost in hub-api
 * (bench/README.md, "badge").
 */
class RequestValidationPipe extends ValidationPipe {
  private readonly validQueries = new WeakMap<Type<unknown>, Set<string>>();

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'query' && metadata.metatype && this.toValidate(metadata) && isObject(value)) {
      return this.transformQuery(value, metadata.metatype as Type<unknown>, metadata);
    }
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

  private async transformQuery(value: object, metatype: Type<unknown>, metadata: ArgumentMetadata): Promise<unknown> {
    // As the validation would: `__proto__` keys go before anything reads the query.
    this.stripProtoKeys(value);
    const key = JSON.stringify(value);
    const known = this.validQueries.get(metatype);
    if (known?.has(key)) return plainToInstance(metatype, value, this.transformOptions);
    const transformed: unknown = await super.transform(value, metadata);
    if (key.length <= MAX_REMEMBERED_QUERY) {
      const remembered = known && known.size < VALID_QUERIES_HELD ? known : new Set<string>();
      remembered.add(key);
      this.validQueries.set(metatype, remembered);
    }
    return transformed;
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

const isObject = (value: unknown): value is object =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function flatten(errors: ValidationError[], parent: string): Problem[] {
  return errors.flatMap((e) => {
    const path = parent ? `${parent}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((message) => ({ path, message, severity: 'error' as const }));
    return [...own, ...flatten(e.children ?? [], path)];
  });
}
