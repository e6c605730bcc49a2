import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { createDestinationGuard, DestinationRefusedError, forbiddenAddressReason } from './destination-guard.js';

/** A resolver over a fixed table (names not in it do not resolve). */
const table =
  (names: Record<string, string[]>) =>
  async (hostname: string): Promise<LookupAddress[]> => {
    const addresses = names[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

const names = {
  'hooks.example.test': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'rebind.example.test': ['93.184.216.34', '10.0.0.5'],
  'metadata.example.test': ['169.254.169.254'],
  'v6-local.example.test': ['fd12:3456::1'],
  localhost: ['127.0.0.1', '::1'],
};
const guard = createDestinationGuard({ allowPrivate: false, resolveAll: table(names) });
const permissive = createDestinationGuard({ allowPrivate: true, resolveAll: table(names) });

const refusal = async (url: string) => {
  try {
    await guard.check(url);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(DestinationRefusedError);
    return (error as Error).message;
  }
};

describe('forbiddenAddressReason', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd00:ec2::254', 'unique-local'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['2001:db8::1', 'reserved'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['64:ff9b::7f00:1', 'non-public'],
    ['2002:7f00:1::', 'non-public'],
  ])('refuses %s (%s)', (address, kind) => {
    expect(forbiddenAddressReason(address)).toContain(kind);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8'])('accepts the public address %s', (address) => {
    expect(forbiddenAddressReason(address)).toBeNull();
  });
});

describe('check', () => {
  it.each([
    ['http://127.0.0.1/hook', '127.0.0.1 is a loopback'],
    ['http://127.1/hook', '127.0.0.1 is a loopback'],
    ['http://0x7f000001/hook', '127.0.0.1 is a loopback'],
    ['http://2130706433/hook', '127.0.0.1 is a loopback'],
    ['http://0177.0.0.1/hook', '127.0.0.1 is a loopback'],
    ['http://[::ffff:127.0.0.1]/hook', '127.0.0.1 is a loopback'],
    ['http://[::1]:8080/hook', '::1 is a loopback'],
    ['http://[::]/hook', 'unspecified'],
    ['http://0.0.0.0/hook', 'unspecified'],
    ['http://169.254.169.254/latest/meta-data', 'link-local'],
    ['http://[fe80::1]/hook', 'fe80::1 is a link-local'],
    ['not a url', 'not valid'],
    ['http://localhost:3000/hook', 'localhost resolves to 127.0.0.1 is a loopback address'],
    ['http://LOCALHOST./hook', 'loopback name'],
    ['http://api.localhost/hook', 'loopback name'],
    ['https://metadata.example.test/hook', 'metadata.example.test resolves to 169.254.169.254 is a link-local'],
    ['https://rebind.example.test/hook', 'resolves to 10.0.0.5 is a private'],
    ['https://v6-local.example.test/hook', 'unique-local'],
  ])('refuses %s', async (url, reason) => {
    expect(await refusal(url)).toContain(reason);
  });

  it('accepts a name whose every address is public, and a public literal', async () => {
    expect(await refusal('https://hooks.example.test/receive')).toBeNull();
    expect(await refusal('https://93.184.216.34/receive')).toBeNull();
    expect(await refusal('https://[2606:4700::1111]/receive')).toBeNull();
  });

  it('accepts a name that does not resolve now: each delivery connection is checked again by lookup', async () => {
    expect(await refusal('https://not-yet.example.test/receive')).toBeNull();
  });

  it('lets private destinations through when they are allowed', async () => {
    for (const url of ['http://127.0.0.1:9/hook', 'http://localhost/hook', 'https://metadata.example.test/', 'http://[::ffff:10.0.0.1]/']) {
      await expect(permissive.check(url)).resolves.toBeUndefined();
    }
  });

  it('gives up on a resolver that hangs and leaves the decision to lookup', async () => {
    const slow = createDestinationGuard({ allowPrivate: false, resolveAll: () => new Promise(() => {}), resolveTimeoutMs: 50 });
    await expect(slow.check('https://slow.example.test/')).resolves.toBeUndefined();
  });
});

describe('lookup', () => {
  const lookup = (g: typeof guard, hostname: string, options: object) =>
    new Promise<{ error: Error | null; address: unknown; family?: number }>((resolve) => {
      g.lookup(hostname, options, (error, address, family) => resolve({ error, address, family }));
    });

  it('refuses a name resolving to loopback when connecting', async () => {
    const { error } = await lookup(guard, 'localhost', {});
    expect(error).toBeInstanceOf(DestinationRefusedError);
  });

  it('answers like dns.lookup when allowed (one address, or all of them)', async () => {
    const one = await lookup(permissive, 'localhost', { family: 4 });
    expect(one).toEqual({ error: null, address: '127.0.0.1', family: 4 });
    const all = await lookup(permissive, 'localhost', { family: 4, all: true });
    expect(all.address).toEqual([{ address: '127.0.0.1', family: 4 }]);
  });
});
