/**
 * Domain error codes → HTTP statuses, by how the code ends, so every library's errors
 * map the same way (`SKILL.VERSION_EXISTS` and `TOKEN.NOT_FOUND` alike).
 */
const BY_SUFFIX: ReadonlyArray<[RegExp, number]> = [
  [/[._]NOT_FOUND$/, 404],
  [/[._](EXISTS|CONFLICT)$/, 409],
  [/[._]TOO_LARGE$/, 413],
  [/\.UNSUPPORTED_MEDIA_TYPE$/, 415],
  [/\.(INVALID_MANIFEST|UNPROCESSABLE)$/, 422],
  [/\.RATE_LIMITED$/, 429],
  [/\.GONE$/, 410],
  [/^AUTH\.(REQUIRED|INVALID)$/, 401],
  [/\.FORBIDDEN$/, 403],
  [/\.(INVALID|BAD_REQUEST|TOO_DEEP|MALFORMED_JSON)$/, 400],
  [/\.BUSY$/, 503],
  [/^VALIDATION$/, 400],
];

export function statusForCode(code: string): number {
  for (const [pattern, status] of BY_SUFFIX) if (pattern.test(code)) return status;
  return 500;
}
