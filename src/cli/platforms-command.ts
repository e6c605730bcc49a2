import { readFile, stat } from 'node:fs/promises';
import {
  type CallbackOrigins,
  type BrandView,
  type PlatformBrandsService,
  MAX_LOGO_BYTES,
  type PlatformsService,
} from '../modules/platforms/contract.js';
import { API_VERSIONS, CURRENT_API_VERSION, isApiVersion, knownVersionsSentence } from '../http/api-versions.js';
import { print, UsageError } from './output.js';

/** `platforms callbacks list|add|remove`: a platform's allowed callback origins. */
export async function callbacksCommand(platforms: PlatformsService, origins: CallbackOrigins, args: string[], json: boolean) {
  const [action, platformId, origin] = args;
  if (!platformId) throw new UsageError('platforms callbacks needs a platform id');
  await platforms.listKeys(platformId); // 404s an unknown platform
  if (action === 'list') {
    const list = await origins.list(platformId);
    print(json, list, list.length ? list.join('\n') : 'no allowed callback origins: any http(s) callback URL is accepted');
  } else if (action === 'add' && origin) {
    const added = await origins.add(platformId, origin).catch((error: Error) => {
      throw new UsageError(error.message);
    });
    print(json, { platform_id: platformId, origin: added }, `Allowed callback origin ${added}`);
  } else if (action === 'remove' && origin) {
    const removed = await origins.remove(platformId, origin);
    print(json, { platform_id: platformId, removed: removed > 0 }, removed ? `Removed ${origin}` : `${origin} was not allowed`);
  } else {
    throw new UsageError('Unknown callbacks command; see statehouse --help');
  }
}

/** `platforms create|list|keys …`: platforms and their API keys. */
export async function platformsCommand(platforms: PlatformsService, sub: string | undefined, args: string[], json: boolean) {
  const [first, second] = args;
  if (sub === 'create') {
    if (!first) throw new UsageError('platforms create needs a name, e.g. statehouse platforms create "Acme Payroll"');
    const { platform, apiKey } = await platforms.create(first);
    // The key goes on a line of its own so scripts can take it with `tail -n 1`.
    print(
      json,
      { platform_id: platform.id, name: platform.name, api_key_id: apiKey.id, api_key: apiKey.key },
      `Created platform ${platform.name} (${platform.id}).\nAPI key ${apiKey.id} (shown once; store it now):\n${apiKey.key}`,
    );
  } else if (sub === 'list') {
    const list = await platforms.list();
    print(
      json,
      list.map((p) => ({ platform_id: p.id, name: p.name, api_version: p.api_version, created_at: p.created_at })),
      list.length ? list.map((p) => `${p.id}\t${p.name}\t${p.api_version ?? '(no key yet)'}`).join('\n') : 'no platforms',
    );
  } else if (sub === 'set-version') {
    await setVersion(platforms, first, second, json);
  } else if (sub === 'keys' && first === 'list' && second) {
    const keys = await platforms.listKeys(second);
    print(
      json,
      keys.map((k) => ({ api_key_id: k.id, hint: k.key_hint, created_at: k.created_at, revoked_at: k.revoked_at })),
      keys.map((k) => `${k.id}\t${k.key_hint}\t${k.revoked_at ? `revoked ${k.revoked_at.toISOString()}` : 'active'}`).join('\n'),
    );
  } else if (sub === 'keys' && first === 'rotate' && second) {
    const key = await platforms.rotateKey(second);
    print(
      json,
      { api_key_id: key.id, api_key: key.key },
      `New API key ${key.id} (shown once; older keys stay valid until revoked):\n${key.key}`,
    );
  } else if (sub === 'keys' && first === 'revoke' && second) {
    const key = await platforms.revokeKey(second);
    print(json, { api_key_id: key.id, revoked: true }, `Revoked API key ${key.id}`);
  } else {
    throw new UsageError('Unknown platforms command; see statehouse --help');
  }
}

/** `platforms set-version <platform_id> <YYYY-MM-DD>`: the platform's default API version (docs/versions.md). */
async function setVersion(platforms: PlatformsService, platformId: string | undefined, version: string | undefined, json: boolean) {
  if (!platformId || !version) {
    throw new UsageError(
      `platforms set-version needs a platform id and a version, e.g. statehouse platforms set-version plt_… ${CURRENT_API_VERSION}`,
    );
  }
  if (!isApiVersion(version)) throw new UsageError(`Unknown API version '${version}'. ${knownVersionsSentence()}`);
  const platform = await platforms.setApiVersion(platformId, version);
  const latest = API_VERSIONS.at(-1)!.version === version ? ' (the current version)' : '';
  print(
    json,
    { platform_id: platform.id, api_version: version },
    `Platform ${platform.id} now defaults to API version ${version}${latest}`,
  );
}

const BRAND_FIELDS = ['name', 'accent', 'logo'] as const;

/**
 * `platforms brand <platform_id> [--name <text>] [--accent <#hex>] [--logo <file>] [--clear name|accent|logo]`:
 * a platform's look on the hosted pages. Without options it shows the current branding.
 */
export async function brandCommand(
  brands: PlatformBrandsService,
  args: string[],
  options: { name?: string; accent?: string; logo?: string; clear?: string[] },
  json: boolean,
) {
  const [platformId] = args;
  if (!platformId) throw new UsageError('platforms brand needs a platform id, e.g. statehouse platforms brand plt_… --accent "#0b5fff"');
  const clear = options.clear ?? [];
  for (const field of clear)
    if (!(BRAND_FIELDS as readonly string[]).includes(field)) throw new UsageError(`--clear takes name, accent or logo (got '${field}')`);
  for (const field of BRAND_FIELDS)
    if (clear.includes(field) && options[field] !== undefined) throw new UsageError(`Give either --${field} or --clear ${field}, not both`);
  const update = {
    ...(options.name !== undefined && { display_name: options.name }),
    ...(options.accent !== undefined && { accent_color: options.accent }),
    ...(options.logo !== undefined && { logo: await readLogo(options.logo) }),
    ...(clear.includes('name') && { display_name: null }),
    ...(clear.includes('accent') && { accent_color: null }),
    ...(clear.includes('logo') && { logo: null }),
  };
  const brand =
    Object.keys(update).length === 0
      ? await brands.get(platformId)
      : await brands.update(platformId, update, { display_name: ['--name'], accent_color: ['--accent'], logo: ['--logo'] });
  print(json, brand, describeBrand(brand));
}

/** The file, or a usage error that says what is wrong with it (a directory, missing, far too large). */
async function readLogo(path: string): Promise<Buffer> {
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) throw new UsageError(`--logo: no file at ${path}`);
  // Read no more than the rule allows (plus one byte, so the rule can say how large it is).
  if (info.size > MAX_LOGO_BYTES * 4)
    throw new UsageError(`--logo: a logo may be at most ${MAX_LOGO_BYTES / 1024} KB; ${path} is ${Math.ceil(info.size / 1024)} KB`);
  return readFile(path);
}

function describeBrand(brand: BrandView): string {
  return [
    `Branding of ${brand.platform_id}:`,
    `  display name  ${brand.display_name ?? '(the platform name)'}`,
    `  accent colour ${brand.accent_color ?? '(default)'}`,
    `  logo          ${brand.logo ? `${brand.logo.content_type}, ${brand.logo.size_bytes} bytes, /hosted/assets/logos/${brand.logo.sha256}` : '(none)'}`,
  ].join('\n');
}
