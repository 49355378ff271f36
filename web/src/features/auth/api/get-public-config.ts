import { api } from '@/lib/api-client';

export interface PublicConfig {
  productName: string;
  charityName: string;
  adminEmailHint: string;
  /** Raster tiles under the maps (MAP_TILE_URL, MAP_ATTRIBUTION); null: the bundled outline only. */
  map?: { tileUrl: string | null; attribution: string | null };
}

let request: Promise<PublicConfig | null> | undefined;

/**
 * GET /api/public/config, once per page load: the admin login reads it with React's use() (which needs the same
 * promise at each render) and the admin dashboard through its query (get-public-config-query.ts), so one request
 * serves both. Null when it failed: the pages work without it. No TanStack Query here: the admin login doesn't load
 * it (decision 013).
 */
export function getPublicConfig(): Promise<PublicConfig | null> {
  request ??= api.get<PublicConfig>('/api/public/config').catch(() => null);
  return request;
}
