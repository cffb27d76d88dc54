import type { ArgumentMetadata, PipeTransform } from '@nestjs/common';
import { DomainError, type Problem } from '@skillhub/errors';
import { type FieldPath, findUnstorableText, formatFieldPath } from '@skillhub/skill-formats';

/**
 * Every path parameter, query parameter and JSON body, before any other pipe: a string holding a
 * NUL or an unpaired surrogate would be refused by PostgreSQL (a 500), so it is refused here (a 400
 * naming the field). Runs ahead of validation, which reports the other faults of the same request.
 */
export class StorableTextPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    // Bytes (a bundle) are not text; a custom decorator's value (the caller) is the hub's own.
    if (metadata.type === 'custom' || Buffer.isBuffer(value)) return value;
    const found = findUnstorableText(value);
    if (found.length === 0) return value;
    const problems = found.map(({ path, reason, key }): Problem => {
      const field = fieldName(metadata.data, path);
      return { path: field, message: `${key ? `The name of ${field}` : field} ${reason}`, severity: 'error' };
    });
    throw new DomainError('invalid', 'VALIDATION', 'The request has invalid fields.', problems);
  }
}

/** `@Param('author')` names its field; a whole query or body names the path inside it. */
function fieldName(data: string | undefined, path: FieldPath): string {
  const inside = formatFieldPath(path);
  if (!data) return inside || 'body';
  return inside ? `${data}${inside.startsWith('[') ? '' : '.'}${inside}` : data;
}
