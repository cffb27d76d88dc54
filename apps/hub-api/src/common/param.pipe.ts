/**
 * Path parameters of a fixed shape, refused with a problem that names the parameter (Nest's own
 * ParseUUIDPipe and ParseIntPipe say only what was expected, and ParseIntPipe lets through numbers
 * no column can hold).
 */
import type { ArgumentMetadata, PipeTransform } from '@nestjs/common';
import { DomainError } from '@skillhub/errors';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Up to 15 digits is always a safe integer, and every such number fits a bigint column. */
const INDEX = /^(0|[1-9]\d{0,14})$/;

function invalidParam(metadata: ArgumentMetadata, expected: string): DomainError {
  const name = metadata.data ?? 'path';
  return new DomainError('invalid', 'VALIDATION', 'The request has invalid fields.', [
    { path: name, message: `${name} must be ${expected}`, severity: 'error' },
  ]);
}

export class UuidParamPipe implements PipeTransform<string, string> {
  transform(value: string, metadata: ArgumentMetadata): string {
    if (!UUID.test(value)) throw invalidParam(metadata, 'a UUID');
    return value;
  }
}

/** A position in a list: a whole number from 0, written in plain digits. */
export class IndexParamPipe implements PipeTransform<string, number> {
  transform(value: string, metadata: ArgumentMetadata): number {
    if (!INDEX.test(value)) throw invalidParam(metadata, 'a whole number from 0 to 999999999999999');
    return Number(value);
  }
}
