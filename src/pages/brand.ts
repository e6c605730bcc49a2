import type { PageBrand } from './html.js';

/** Where the hosted pages find a platform's brand assets; both are named by their content and never change. */
export const ACCENT_STYLESHEET_PATH = '/hosted/assets/accent/';
export const LOGO_PATH = '/hosted/assets/logos/';

/** The header and stylesheet of a platform's brand, from its stored accent (#rrggbb) and logo digest. */
export function pageBrand(brand: { accent_color: string | null; logo_sha256: string | null } | null | undefined): PageBrand | null {
  if (!brand || (!brand.accent_color && !brand.logo_sha256)) return null;
  return {
    stylesheetUrl: brand.accent_color ? `${ACCENT_STYLESHEET_PATH}${brand.accent_color.slice(1)}.css` : null,
    logoUrl: brand.logo_sha256 ? `${LOGO_PATH}${brand.logo_sha256}` : null,
  };
}

/**
 * The stylesheet that gives the hosted pages a platform's accent: buttons, links and focus outlines. Our own
 * CSS, served from our origin, because the pages' CSP allows no inline style. `hex` is six hex digits.
 */
export function accentStylesheet(hex: string): string {
  return (
    `:root { --accent: #${hex.toLowerCase()}; }\n` +
    'button:focus-visible, a:focus-visible, .field input:focus-visible, .field select:focus-visible, .field textarea:focus-visible, ' +
    'details summary:focus-visible, .task-form input:focus-visible { outline-color: var(--accent); }\n'
  );
}
