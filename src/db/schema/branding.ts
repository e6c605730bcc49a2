/** Row types of the platforms' branding of the hosted pages (src/modules/platforms/platform-brands.*). */

export interface PlatformBrandsTable {
  platform_id: string;
  /** Shown to business owners instead of the platform's account name. */
  display_name: string | null;
  /** #rrggbb, lower case; at least 4.5:1 against white (checked before it is stored). */
  accent_color: string | null;
  /** A PNG or JPEG of at most 100 KB, served from our origin at /hosted/assets/logos/<logo_sha256>. */
  logo: Buffer | null;
  logo_content_type: 'image/png' | 'image/jpeg' | null;
  logo_sha256: string | null;
  updated_at: Date;
}
