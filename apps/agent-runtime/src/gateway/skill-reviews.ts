/**
 * Skills a human has reviewed, kept across restarts in `<state_dir>/trust/reviewed-skills.json`.
 * SwarmKit locks a skill a swarm authored until its first human review: the gateway asks for
 * approval of its calls until a human approves one, then records the skill version here, and its
 * calls are gated as any other's from then on. A new version is a new review. Removing a line
 * from the file takes the review back.
 */
import { JsonStateFile } from '@skillhub/installer';

export interface SkillReviews {
  has(certifiedAs: string): boolean;
  /** `certifiedAs` (`author/name@version`) was approved by a human now. */
  record(certifiedAs: string): void;
}

interface StoredReviews {
  reviewed?: Record<string, string>;
}

export class FileSkillReviews implements SkillReviews {
  private readonly reviewed = new Map<string, string>();
  private readonly file: JsonStateFile<StoredReviews>;

  constructor(path: string) {
    this.file = new JsonStateFile(path);
    for (const [skill, at] of Object.entries(this.file.read()?.reviewed ?? {})) this.reviewed.set(skill, at);
  }

  has(certifiedAs: string): boolean {
    return this.reviewed.has(certifiedAs);
  }

  record(certifiedAs: string): void {
    if (this.reviewed.has(certifiedAs)) return;
    this.reviewed.set(certifiedAs, new Date().toISOString());
    this.file.write({ reviewed: Object.fromEntries(this.reviewed) });
  }
}
