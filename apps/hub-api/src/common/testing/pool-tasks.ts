/** Tasks for the worker pool's spec: where they ran, and how long they held their thread. */
import { threadId } from 'node:worker_threads';

export function whereAmI(): number {
  return threadId;
}

/** Holds the thread (a busy loop, as a costly parse would) for `ms`. */
export function spin(ms: number): number {
  const until = Date.now() + ms;
  while (Date.now() < until);
  return threadId;
}
