/**
 * "Skill X's verdict changed": said after the transaction that changed a certification or a
 * skill's versions committed, heard by what keeps verdicts in memory (hub-api's badge cache).
 * Listeners in this process hear it at once; other processes hear it through
 * Redis pub/sub on `<REDIS_PREFIX>:verdict-changed`. Pub/sub keeps nothing for a subscriber that
 * is not connected, so `complete` says whether every change made anywhere reaches this
 * process's listeners now, and a (re)subscription tells them to forget everything.
 */
import { randomUUID } from 'node:crypto';
import { Global, Inject, Injectable, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { HUB_CONFIG, type HubConfig, isEmbedded } from '@skillhub/config';
import { JobQueueModule } from './job-queue.module';
import { PRODUCER_REDIS } from './queue.tokens';
import { createRedisConnection } from './redis-connection';

/** `author/name`, or every skill (a subscription began: what was missed is unknown). */
export type VerdictChange = { skill: string } | { all: true };
export type VerdictListener = (change: VerdictChange) => void;

/** Longest `author/name` a message may carry: longer ones are not skills and are ignored. */
const MAX_SKILL_REF = 300;

@Injectable()
export class VerdictEvents implements OnApplicationShutdown {
  private readonly logger = new Logger('VerdictEvents');
  private readonly listeners = new Set<VerdictListener>();
  /** Tells this process's own messages apart, which its listeners already heard. */
  private readonly origin = randomUUID();
  private readonly channel: string;
  private subscriber: Redis | null = null;
  private subscribed = false;

  constructor(
    @Inject(PRODUCER_REDIS) private readonly redis: Redis,
    @Inject(HUB_CONFIG) private readonly config: HubConfig,
  ) {
    this.channel = `${config.REDIS_PREFIX}:verdict-changed`;
  }

  /**
   * True while every change reaches the listeners: always on the embedded database (one process
   * writes it, docs/architecture.md), else only while the subscription to Redis holds.
   */
  get complete(): boolean {
    return isEmbedded(this.config) || this.subscribed;
  }

  /**
   * Call after the commit. Listeners here hear it before this returns; once it resolves, Redis
   * has handed the message to every subscribed process. Never throws: a Redis that does not
   * answer loses the message for other processes, whose caches then hold at most their TTL.
   */
  async changed(skill: string): Promise<void> {
    this.emit({ skill });
    // No other process writes or reads the embedded database.
    if (isEmbedded(this.config)) return;
    try {
      await this.redis.publish(this.channel, JSON.stringify({ origin: this.origin, skill }));
    } catch (err) {
      this.logger.warn(`${skill}: verdict change not published (${(err as Error).message})`);
    }
  }

  /** Starts hearing other processes' changes on first use. */
  listen(listener: VerdictListener): void {
    this.listeners.add(listener);
    if (!isEmbedded(this.config) && !this.subscriber) this.subscribe();
  }

  onApplicationShutdown(): void {
    this.subscribed = false;
    this.subscriber?.disconnect();
  }

  private subscribe(): void {
    const subscriber = createRedisConnection(this.config.REDIS_URL, 'worker');
    this.subscriber = subscriber;
    subscriber.on('close', () => (this.subscribed = false));
    // On every (re)connection: SUBSCRIBE is idempotent, and its answer is the moment from which
    // no message is missed, so listeners drop what they held from before it.
    subscriber.on('ready', () => {
      subscriber.subscribe(this.channel).then(
        () => {
          this.subscribed = true;
          this.emit({ all: true });
        },
        (err: Error) => this.logger.warn(`not subscribed to ${this.channel}: ${err.message}`),
      );
    });
    subscriber.on('message', (channel: string, message: string) => {
      if (channel !== this.channel) return;
      const skill = parseMessage(message, this.origin);
      if (skill) this.emit({ skill });
    });
  }

  private emit(change: VerdictChange): void {
    for (const listener of this.listeners) listener(change);
  }
}

/** The skill a message from another process names, or null (ours, or not a message of this channel). */
function parseMessage(message: string, ownOrigin: string): string | null {
  try {
    const parsed = JSON.parse(message) as { origin?: unknown; skill?: unknown };
    if (parsed.origin === ownOrigin || typeof parsed.skill !== 'string') return null;
    return parsed.skill.length <= MAX_SKILL_REF ? parsed.skill : null;
  } catch {
    return null;
  }
}

/** One VerdictEvents per process, for every module (the certifier, hub-api's writers and its badges). */
@Global()
@Module({ imports: [JobQueueModule], providers: [VerdictEvents], exports: [VerdictEvents] })
export class VerdictEventsModule {}
