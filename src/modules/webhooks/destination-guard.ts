import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';
import type { DestinationGuard } from './contract.js';

/** Resolves a host name to every address it has (dns.lookup with `all`; a fake in unit tests). */
export type ResolveAll = (hostname: string) => Promise<LookupAddress[]>;

export interface DestinationGuardDeps {
  /** STATEHOUSE_WEBHOOKS_ALLOW_PRIVATE=1: development and tests deliver to receivers on this machine. */
  allowPrivate: boolean;
  resolveAll?: ResolveAll;
  /** How long a name's resolution may take when an endpoint is saved (a hung resolver must not hang the request). */
  resolveTimeoutMs?: number;
}

/** The address ranges that name a public host; everything else (loopback, private, link-local, …) is refused. */
const PUBLIC_RANGE = 'unicast';

/** Why an address may not be a webhook destination, or null when it may (a public unicast address). */
export function forbiddenAddressReason(address: string): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  let parsed = ipaddr.parse(address);
  // ::ffff:127.0.0.1 reaches 127.0.0.1: judge the IPv4 address it carries.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  return range === PUBLIC_RANGE ? null : `${parsed.toString()} is a ${describeRange(range)} address`;
}

const RANGE_NAMES: Record<string, string> = {
  loopback: 'loopback',
  private: 'private',
  linkLocal: 'link-local',
  uniqueLocal: 'unique-local (private)',
  multicast: 'multicast',
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  carrierGradeNat: 'shared (carrier-grade NAT)',
  reserved: 'reserved',
};
const describeRange = (range: string) => RANGE_NAMES[range] ?? `non-public (${range})`;

/** `localhost` and `*.localhost` are loopback by definition (RFC 6761), even where this machine's resolver does not know them. */
const isLocalhostName = (hostname: string) => /(^|\.)localhost\.?$/i.test(hostname);

/** The host of a URL as an IP literal (brackets removed), or null for a name. WHATWG URL has already normalised `127.1`, `0x7f000001`. */
function ipLiteral(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) ? bare : null;
}

/** A refusal of a destination: its message says why (shown to the API caller, and recorded on a failed attempt). */
export class DestinationRefusedError extends Error {
  readonly code = 'ERR_WEBHOOK_DESTINATION_REFUSED';
  constructor(message: string) {
    super(message);
    this.name = 'DestinationRefusedError';
  }
}

const systemResolveAll: ResolveAll = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)));
  });

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The webhook destination guard (the contract's DestinationGuard). `check` runs when an endpoint is saved;
 * deliveries pass `lookup` to every request, so a name that resolves to a forbidden address later (DNS rebinding)
 * is refused when connecting. Node does not call `lookup` for an IP literal: deliveries call `check` too.
 */
export function createDestinationGuard(deps: DestinationGuardDeps): DestinationGuard {
  const resolveAll = deps.resolveAll ?? systemResolveAll;
  const resolveTimeoutMs = deps.resolveTimeoutMs ?? 5_000;

  /** The reason every address of a host may not be used, or null. */
  function refusal(hostname: string, addresses: readonly string[]): string | null {
    if (deps.allowPrivate) return null;
    for (const address of addresses) {
      const reason = forbiddenAddressReason(address);
      if (reason) return addresses.length === 1 && address === hostname ? `the destination ${reason}` : `${hostname} resolves to ${reason}`;
    }
    return null;
  }

  return {
    async check(url) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        throw new DestinationRefusedError('the URL is not valid');
      }
      const hostname = parsed.hostname;
      const literal = ipLiteral(hostname);
      if (literal) {
        const reason = refusal(literal, [literal]);
        if (reason) throw new DestinationRefusedError(reason);
        return;
      }
      if (deps.allowPrivate) return;
      const addresses = await withTimeout(
        resolveAll(hostname).catch(() => [] as LookupAddress[]),
        resolveTimeoutMs,
      );
      if (addresses !== 'timeout' && addresses.length > 0) {
        const reason = refusal(
          hostname,
          addresses.map((a) => a.address),
        );
        if (reason) throw new DestinationRefusedError(reason);
        return;
      }
      if (isLocalhostName(hostname)) throw new DestinationRefusedError(`${hostname} is a loopback name`);
      // Any other name that does not resolve (yet) is accepted: nothing can be reached through it now, and every
      // delivery's connection is checked again by `lookup`.
    },

    lookup(hostname, options, callback) {
      const wantsAll = (options as { all?: boolean }).all === true;
      dnsLookup(hostname, { ...(options as object), all: true }, (error, addresses) => {
        if (error) return callback(error, []);
        const reason = refusal(
          hostname,
          addresses.map((a) => a.address),
        );
        if (reason) return callback(new DestinationRefusedError(reason), []);
        if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
        if (wantsAll) return callback(null, addresses);
        return callback(null, addresses[0]!.address, addresses[0]!.family);
      });
    },
  };
}
