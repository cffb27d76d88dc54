/**
 * The agent-runtime as its own process: its gateway answers at once and adds skills as they are
 * installed, so a test that wants every tool waits for the line it logs once all are loaded.
 */
import { waitFor } from './private-redis';

export const EVERY_SKILL_LOADED = 'gateway: every skill is loaded';

/** Resolves once `log()` (the runtime's stderr so far) says every skill and server has started or failed. */
export const untilEverySkillLoaded = async (log: () => string): Promise<void> => {
  await waitFor(async () => log().includes(EVERY_SKILL_LOADED), 300_000, 'the runtime to load every skill');
};
