export {
  HubClient,
  HUB_CLIENT_DEFAULTS,
  type DownloadBundleOptions,
  type DownloadedBundle,
  type HubClientOptions,
  type PublishResult,
} from './hub-client';
export * from './hub-client.errors';
export type * from './hub-api';
