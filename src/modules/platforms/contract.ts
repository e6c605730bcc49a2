// What other modules may use of platforms: the platform principal, the API-key and callback-origin services, and
// the hosted pages' branding (its service, views and limits).
import type { Db } from '../../db/database.js';

export type { PlatformPrincipal } from '../../http/principals.js';
export type { CallbackOrigins } from './callback-origins.js';
export type { PlatformsService } from './platforms.service.js';
export { MAX_DISPLAY_NAME, MAX_LOGO_BYTES } from './platform-brands.fns.js';

/** A platform's branding as the operator API and the CLI show it. */
export interface BrandView {
  platform_id: string;
  display_name: string | null;
  accent_color: string | null;
  logo: { content_type: string; size_bytes: number; sha256: string } | null;
  updated_at: string | null;
}

/** A change of branding: an absent field keeps its value, null removes it. */
export interface BrandUpdate {
  display_name?: string | null;
  accent_color?: string | null;
  /** The logo file's bytes. */
  logo?: Buffer | null;
}

/** Where each field of an update came from, for the 422's `loc` (the API's body fields, the CLI's options). */
export type BrandFieldPaths = Record<keyof BrandUpdate, (string | number)[]>;

/** The operator API's body fields (the error handler puts them under 'body'). */
export const API_BRAND_FIELDS: BrandFieldPaths = { display_name: ['display_name'], accent_color: ['accent_color'], logo: ['logo_base64'] };

/** A platform's look on the hosted pages (implemented by createPlatformBrandsService). */
export interface PlatformBrandsService {
  /** The platform's brand (404 for an unknown platform). */
  get(platformId: string): Promise<BrandView>;
  /**
   * Checks every field (all refusals of one update together), then writes them in one transaction with `onWritten`
   * (the operator API's audit line). Answers the brand as it now is.
   */
  update(
    platformId: string,
    update: BrandUpdate,
    paths: BrandFieldPaths,
    onWritten?: (trx: Db, brand: BrandView) => Promise<void>,
  ): Promise<BrandView>;
}
