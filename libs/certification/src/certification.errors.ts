/** Errors `certify` throws: only for arguments the worker got wrong; a skill's own defects are findings. */
import { DomainError } from '@skillhub/errors';

export const CERTIFICATION_INVALID_INPUT = 'CERTIFICATION.INVALID_INPUT';

export class InvalidCertificationInputError extends DomainError {
  constructor(message: string) {
    super('internal', CERTIFICATION_INVALID_INPUT, message);
  }
}
