/** Queue names and job payloads: the one place producers and processors agree on. */

export const CERTIFICATION_QUEUE = 'certification';

export const CERTIFY_JOB = 'certify';
/** A quarantined Kazma submission: only the checks that apply to a manifest alone. */
export const CERTIFY_SUBMISSION_JOB = 'certify-submission';
/** Daily: probe the packages of certified versions again. */
export const REPROBE_JOB = 'reprobe';

export interface CertifyJobPayload {
  skillVersionId: string;
  policyVersion: number;
}

export interface CertifySubmissionJobPayload {
  submissionId: string;
}

export interface ReprobeJobPayload {
  /** The UTC day (YYYY-MM-DD) the re-probe is for: one a day, however many processes ask for it. */
  day: string;
}

export interface QueueJobs {
  [CERTIFICATION_QUEUE]: {
    [CERTIFY_JOB]: CertifyJobPayload;
    [CERTIFY_SUBMISSION_JOB]: CertifySubmissionJobPayload;
    [REPROBE_JOB]: ReprobeJobPayload;
  };
}

export type QueueName = keyof QueueJobs;
export type JobName<Q extends QueueName> = keyof QueueJobs[Q] & string;
export type JobPayload<Q extends QueueName, J extends JobName<Q>> = QueueJobs[Q][J];
