/** Kazma's skill id: `kazma-hub://<author>/<name>[@<version>]`. */
export const kazmaSkillId = (author: string, name: string, version?: string): string =>
  `kazma-hub://${author}/${name}${version ? `@${version}` : ''}`;
