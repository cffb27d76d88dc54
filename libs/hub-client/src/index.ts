export { HubClient, HUB_CLIENT_DEFAULTS, type HubClientOptions } from './hub-client';
export * from './hub-client.errors';
export type * from './hub-api.types';
