import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { DomainError, type Problem } from '@skillhub/errors';

/** Request DTO validation: unknown fields refused, every failing field named in the problem body. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    exceptionFactory: (errors) => new DomainError('VALIDATION', 'The request has invalid fields.', flatten(errors, '')),
  });
}

function flatten(errors: ValidationError[], parent: string): Problem[] {
  return errors.flatMap((e) => {
    const path = parent ? `${parent}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((message) => ({ path, message, severity: 'error' as const }));
    return [...own, ...flatten(e.children ?? [], path)];
  });
}
