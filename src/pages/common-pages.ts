import { html, layout } from './html.js';

export function renderMessagePage(data: { title: string; body: string; platformName?: string | null }): string {
  return layout({ title: data.title, platformName: data.platformName, body: html`<h1>${data.title}</h1><p>${data.body}</p>` });
}
