/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** A template tag whose interpolations are escaped unless wrapped in `raw()`. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Raw {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new Raw(out);
}

export class Raw {
  constructor(readonly value: string) {}
  toString() {
    return this.value;
  }
}

export const raw = (value: string) => new Raw(value);

function render(value: unknown): string {
  if (value instanceof Raw) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(value);
}

/** A platform's look on the hosted pages (docs/hosted-pages.md, "Platform branding"). */
export interface PageBrand {
  /** Our stylesheet setting the platform's accent colour (the pages' CSP allows only our own styles). */
  stylesheetUrl: string | null;
  /** The platform's logo, served from our origin. */
  logoUrl: string | null;
}

export interface LayoutOptions {
  title: string;
  platformName?: string | null;
  brand?: PageBrand | null;
  body: Raw;
}

/** The document's start up to <body>: one head for the hosted pages and the back office. */
export const documentHead = (title: string, brandStylesheet?: string | null) => html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<link rel="stylesheet" href="/hosted/assets/statehouse.css">
${
  brandStylesheet
    ? html`<link rel="stylesheet" href="${brandStylesheet}">
`
    : ''
}</head>
`;

export function layout({ title, platformName, brand, body }: LayoutOptions): string {
  // The logo is decorative (alt=""): the platform's name follows it as text.
  return html`${documentHead(`${title} · Statehouse`, brand?.stylesheetUrl)}<body>
<header class="top">${brand?.logoUrl ? html`<img class="logo" src="${brand.logoUrl}" alt="">` : ''}<span class="brand">${platformName ?? 'Statehouse'}</span></header>
<main id="main" class="card">
${body}
</main>
<footer class="foot">Compliance onboarding by Statehouse</footer>
</body>
</html>
`.value;
}
