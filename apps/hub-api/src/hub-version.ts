/** The hub's version as the root package.json states it (read once; the file ships with the build). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const findPackageJson = (): string => {
  // src/ and dist/apps/hub-api/src/ both sit below the repository root.
  for (const up of ['../../..', '../../../..']) {
    try {
      return readFileSync(join(__dirname, up, 'package.json'), 'utf8');
    } catch {
      continue;
    }
  }
  return '{"version":"0.0.0"}';
};

export const HUB_VERSION: string = (JSON.parse(findPackageJson()) as { version: string }).version;
