import type { CertificationSummary } from '@skillhub/database';
import { CertificationSummaryDto } from './skill-version.response.dto';

const row = (over: Partial<CertificationSummary>): CertificationSummary => ({
  skillVersionId: 'v',
  status: 'certified',
  level: 'standard',
  expiresAt: null,
  ...over,
});

describe('CertificationSummaryDto.from: what info and publish answers say about a version', () => {
  it('is pending, level none, before any verdict', () => {
    expect(CertificationSummaryDto.from(null)).toEqual({ status: 'pending', level: 'none' });
  });

  it('says certified while the certificate holds', () => {
    const tomorrow = new Date(Date.now() + 86_400_000);
    expect(CertificationSummaryDto.from(row({ expiresAt: tomorrow }))).toEqual({
      status: 'certified',
      level: 'standard',
    });
  });

  it('says expired once the certificate is past its expiry, as search and the certificate route do', () => {
    const yesterday = new Date(Date.now() - 86_400_000);
    expect(CertificationSummaryDto.from(row({ expiresAt: yesterday }))).toEqual({
      status: 'expired',
      level: 'standard',
    });
  });
});
