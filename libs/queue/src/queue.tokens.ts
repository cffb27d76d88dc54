/** The producer-side Redis connection (fails fast while Redis is down). */
export const PRODUCER_REDIS = Symbol('PRODUCER_REDIS');
