/** What a badge says for each certification state: fixed messages and colours, nothing a publisher wrote. */
import type { CertificationLevel } from '@skillhub/database';
import type { CertificationState } from '../certifications/dto/certification-status.response.dto';

export const BADGE_STYLES = ['flat', 'flat-square', 'for-the-badge', 'plastic', 'social'] as const;
export type BadgeStyle = (typeof BADGE_STYLES)[number];

export const DEFAULT_BADGE_LABEL = 'skill hub';
export const MAX_BADGE_LABEL_LENGTH = 40;

export interface BadgeFace {
  message: string;
  color: 'brightgreen' | 'green' | 'yellow' | 'orange' | 'red' | 'lightgrey' | 'blue';
}

export function badgeFace(state: CertificationState | 'not-found', level: CertificationLevel): BadgeFace {
  switch (state) {
    case 'certified':
      return level === 'standard'
        ? { message: 'certified · standard', color: 'brightgreen' }
        : { message: 'certified · basic', color: 'green' };
    case 'pending':
      return { message: 'pending', color: 'yellow' };
    case 'quarantined':
      return { message: 'quarantined', color: 'yellow' };
    case 'inconclusive':
      return { message: 'inconclusive', color: 'orange' };
    case 'expired':
      return { message: 'expired', color: 'orange' };
    case 'failed':
      return { message: 'failed', color: 'red' };
    case 'revoked':
      return { message: 'revoked', color: 'red' };
    case 'not-found':
      return { message: 'not found', color: 'lightgrey' };
  }
}

/** A label override: control characters dropped, whitespace folded, length capped (escaping is the renderer's). */
export function cleanLabel(raw: string | undefined): string {
  if (raw === undefined) return DEFAULT_BADGE_LABEL;
  const cleaned = raw
    .slice(0, MAX_BADGE_LABEL_LENGTH * 4)
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MAX_BADGE_LABEL_LENGTH);
  return cleaned || DEFAULT_BADGE_LABEL;
}
