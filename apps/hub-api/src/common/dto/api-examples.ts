/** Example values the OpenAPI document shows, one of each, so that its examples agree with each other. */
export const EXAMPLE = {
  keyId: '5b0e9f1c3a7d2e4b6c8a0f1e3d5c7b9a2e4f6a8c0b1d3e5f7a9c2b4d6e8f0a1c',
  publicKeyPem:
    '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----\n',
  bundleSha256: '9f2c4e7a1b3d5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8',
  submissionId: '7d9f3c2e-1a4b-4c5d-8e6f-0a1b2c3d4e5f',
  tokenId: '0b8e1f4a-2c3d-4e5f-8a9b-1c2d3e4f5a6b',
  publishedAt: '2025-10-21T09:30:00.000Z',
} as const;
