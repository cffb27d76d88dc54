/**
 * "Did you mean": when the hub has no skill by a name, its search (which matches misspelt names by
 * trigram similarity) is asked for near ones, and up to three go into the hint.
 */
import { HubApiError, type HubClient } from '@skillhub/hub-client';
import { CliError, EXIT } from './exit-codes';

export const MAX_SUGGESTIONS = 3;

/** Runs `call`; a "no such skill" from it becomes a not-found error whose hint names near skills. */
export async function orSuggest<T>(hub: HubClient, author: string, name: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (!(err instanceof HubApiError) || err.code !== 'SKILL.NOT_FOUND') throw err;
    throw new CliError(err.message, EXIT.notFound, await suggestionHint(hub, author, name));
  }
}

async function suggestionHint(hub: HubClient, author: string, name: string): Promise<string> {
  const ref = `${author}/${name}`;
  let near: string[];
  try {
    const { items } = await hub.listSkills({ q: name, per_page: 10 });
    near = [...new Set(items.map((s) => `${s.author}/${s.name}`))];
  } catch {
    // A hint is a courtesy: the search failing must not hide the "not found" itself.
    return 'Check the author, name and version.';
  }
  if (near.includes(ref)) return `${ref} exists, but not that version: see skillhub info ${ref}`;
  // The same author's skills first: a mistyped name is likelier than a mistyped namespace.
  const ranked = [
    ...near.filter((r) => r.startsWith(`${author}/`)),
    ...near.filter((r) => !r.startsWith(`${author}/`)),
  ];
  const shown = ranked.slice(0, MAX_SUGGESTIONS);
  return shown.length
    ? `Did you mean ${shown.join(', ')}?`
    : 'Check the author and name: the hub found nothing like it.';
}
