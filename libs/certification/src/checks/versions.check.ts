/** C6 versions: listed so that every check has a status, but enforced where it can be, at publish. */
import { skip, type Check } from '../check';

export const versionsCheck: Check = {
  id: 'C6',
  decides: [],
  appliesToManifestOnly: true,
  run: () =>
    skip(
      'author/name@version is immutable, which the hub enforces when a version is published (a re-upload with other bytes is refused)',
      'Nothing to do.',
    ),
};
