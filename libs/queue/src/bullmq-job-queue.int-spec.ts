/** BullJobQueue on the machine's Redis, under a key prefix of this file's own. */
import { Logger } from '@nestjs/common';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { loadConfig } from '@skillhub/config';
import { deleteRedisKeys, newTestRedisPrefix, testRedisUrl } from '@skillhub/testing';
import { BullJobQueue } from './bullmq-job-queue';
import { DiscardJobError, type JobRun, type QueuedJob } from './job-queue';
import { createRedisConnection, waitUntilReady } from './redis-connection';

const QUEUE = 'certification';
const job = (subject: string, round: string): QueuedJob => ({
  id: `${subject}.${round}`,
  subject,
  queue: QUEUE,
  name: 'certify',
  data: { subject, round },
});

describe('BullJobQueue', () => {
  const prefix = newTestRedisPrefix();
  const config = loadConfig({ REDIS_URL: testRedisUrl(), REDIS_PREFIX: prefix, CERTIFIER_LOCK_MS: '5000' });
  let redis: Redis;
  let jobs: BullJobQueue;
  let inspect: Queue;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    redis = createRedisConnection(config.REDIS_URL, 'producer');
    await waitUntilReady(redis, 5_000);
    jobs = new BullJobQueue(redis, config);
    inspect = new Queue(QUEUE, { connection: { url: testRedisUrl() }, prefix });
  });
  afterAll(async () => {
    await jobs.close();
    await inspect.close();
    redis.disconnect();
    await deleteRedisKeys(prefix);
  });

  it('adds a round once however often it is handed over, and a subject once while its job waits', async () => {
    await jobs.add([job('certify.a.p1', 'r1'), job('certify.a.p1', 'r1')]);
    await jobs.add([job('certify.a.p1', 'r1')]); // the relay crashed before marking the row
    await jobs.add([job('certify.a.p1', 'r2')]); // the watchdog of another process, at the same time
    const waiting = await inspect.getJobs(['waiting']);
    expect(waiting.map((j) => j.id)).toEqual(['certify.a.p1.r1']);
    expect(await jobs.hasLiveJob(QUEUE, 'certify.a.p1')).toBe(true);
    expect(await jobs.hasLiveJob(QUEUE, 'certify.b.p1')).toBe(false);
  });

  it('runs each job once, retries a thrown one, discards a DiscardJobError, and then takes a new round', async () => {
    const seen: JobRun[] = [];
    jobs.consume(QUEUE, async (run) => {
      seen.push(run);
      const { subject, round } = run.data as { subject: string; round: string };
      if (subject === 'certify.gone.p1') throw new DiscardJobError('what it names does not exist');
      if (subject === 'certify.flaky.p1' && run.attempt === 1) throw new Error('transient');
      return `${subject} ${round}`;
    });
    await jobs.add([job('certify.gone.p1', 'r1'), job('certify.flaky.p1', 'r1')]);
    const settled = async (id: string) => {
      for (let i = 0; i < 200; i++) {
        const j = await inspect.getJob(id);
        if (j?.finishedOn) return j;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`${id} did not finish`);
    };
    expect((await settled('certify.a.p1.r1')).returnvalue).toBe('certify.a.p1 r1');
    const gone = await settled('certify.gone.p1.r1');
    expect([gone.failedReason, gone.attemptsMade]).toEqual(['what it names does not exist', 1]);
    // Retried after the backoff (5 s): slow, but BullMQ's own schedule.
    await new Promise((r) => setTimeout(r, 100));
    expect(await jobs.hasLiveJob(QUEUE, 'certify.flaky.p1')).toBe(true);

    // The first round finished: the same round is still not added again, a new round is.
    expect(await jobs.hasLiveJob(QUEUE, 'certify.a.p1')).toBe(false);
    await jobs.add([job('certify.a.p1', 'r1')]);
    await jobs.add([job('certify.a.p1', 'r3')]);
    expect((await settled('certify.a.p1.r3')).returnvalue).toBe('certify.a.p1 r3');
    expect((await settled('certify.flaky.p1.r1')).returnvalue).toBe('certify.flaky.p1 r1');
    expect(seen.filter((r) => r.id === 'certify.a.p1.r1')).toHaveLength(1);
    expect(seen.filter((r) => r.id === 'certify.flaky.p1.r1').map((r) => r.attempt)).toEqual([1, 2]);
  }, 30_000);

  it('says it cannot tell while Redis is unreachable, and counts how long', async () => {
    const dead = createRedisConnection('redis://127.0.0.1:1', 'producer');
    const blind = new BullJobQueue(dead, config);
    await new Promise((r) => setTimeout(r, 50));
    expect(blind.reachable()).toBe(false);
    expect(await blind.hasLiveJob(QUEUE, 'certify.a.p1')).toBeNull();
    expect(blind.unreachableFor()).toBeGreaterThanOrEqual(40);
    await expect(blind.add([job('certify.z.p1', 'r1')])).rejects.toThrow();
    await blind.close();
    dead.disconnect();
  });
});
