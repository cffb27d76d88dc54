/** The security checks of docs/security.md, C1 to C16. */
export const CHECK_IDS = [
  'C1',
  'C2',
  'C3',
  'C4',
  'C5',
  'C6',
  'C7',
  'C8',
  'C9',
  'C10',
  'C11',
  'C12',
  'C13',
  'C14',
  'C15',
  'C16',
] as const;
export type CheckId = (typeof CHECK_IDS)[number];
