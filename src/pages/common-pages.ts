import { html, layout, type PageBrand } from './html.js';

export function renderMessagePage(data: { title: string; body: string; platformName?: string | null; brand?: PageBrand | null }): string {
  return layout({
    title: data.title,
    platformName: data.platformName,
    brand: data.brand,
    body: html`<h1>${data.title}</h1><p>${data.body}</p>`,
  });
}
