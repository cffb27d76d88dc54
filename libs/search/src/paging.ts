/**
 * How many items a list answers. Every route that pages (`GET /api/v1/skills`, the MCP registry's
 * `/v0.1/servers`) answers this many when the request names no size, and at most `MAX_PAGE_SIZE`.
 * Kazma's CLI does not page (`certified` and the old hub's search read `items` once), so those
 * calls get every match, up to `UNPAGED_LIST_CAP`.
 */
export const DEFAULT_PAGE_SIZE = 30;
export const MAX_PAGE_SIZE = 100;
export const UNPAGED_LIST_CAP = 1_000;
