/** Queue names and job payloads: the one place producers and processors agree on. */

export const CERTIFICATION_QUEUE = 'certification';

export const CERTIFY_JOB = 'certify';

/** Bumped when the certification rules change, so every version is judged again under the new policy. */
export const CERTIFICATION_POLICY_VERSION = 1;

export interface CertifyJobPayload {
  skillVersionId: string;
  policyVersion: number;
}

export interface QueueJobs {
  [CERTIFICATION_QUEUE]: { [CERTIFY_JOB]: CertifyJobPayload };
}

export type QueueName = keyof QueueJobs;
export type JobName<Q extends QueueName> = keyof QueueJobs[Q] & string;
export type JobPayload<Q extends QueueName, J extends JobName<Q>> = QueueJobs[Q][J];
