import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { createCipheriv } from 'node:crypto';
import { createVault, loadVaultKeys, loginSecretAad, vaultKeyId, VaultError } from './vault.js';

const LOGIN = 'login_0123456789abcdef';
const secret = {
  username: 'owner@example.com',
  password: 'hunter2-correct-horse',
  security_answers: [{ question: 'pet', answer: 'Rex' }],
  totp_seed: 'JBSWY3DPEHPK3PXP',
};

describe('login vault', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('round-trips a secret; the ciphertext holds no plaintext and each seal uses a fresh 96-bit IV', () => {
    const key = randomBytes(32);
    const vault = createVault([key]);
    const a = vault.seal(secret, LOGIN);
    const b = vault.seal(secret, LOGIN);
    expect(a.iv).toHaveLength(12);
    expect(a.tag).toHaveLength(16);
    expect(a.iv.equals(b.iv)).toBe(false);
    expect(a.ciphertext.equals(b.ciphertext)).toBe(false);
    expect(a.keyId).toBe(vaultKeyId(key));
    expect(a.keyId).toMatch(/^[0-9a-f]{8}$/);
    expect(a.ciphertext.toString('latin1')).not.toContain('hunter2');
    expect(vault.open(a, LOGIN)).toEqual(secret);
  });

  it('detects tampering without revealing anything', () => {
    const vault = createVault([randomBytes(32)]);
    const sealed = vault.seal(secret, LOGIN);
    const flipped = Buffer.from(sealed.ciphertext);
    flipped[0]! ^= 1;
    expect(() => vault.open({ ...sealed, ciphertext: flipped }, LOGIN)).toThrow(VaultError);
    expect(() => vault.open({ ...sealed, ciphertext: flipped }, LOGIN)).not.toThrow(/hunter2/);
  });

  it('binds a sealed secret to its login: another login id does not open it; legacy (v1) secrets still open', () => {
    const key = randomBytes(32);
    const vault = createVault([key]);
    const sealed = vault.seal(secret, LOGIN);
    expect(sealed.aadVersion).toBe(2);
    expect(() => vault.open(sealed, 'login_another')).toThrow(VaultError);
    expect(() => vault.open(sealed, 'login_another')).not.toThrow(/hunter2/);
    // A secret sealed before the binding existed (associated data = the purpose only) opens for any login id.
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(loginSecretAad(1, ''));
    const ciphertext = Buffer.concat([cipher.update(JSON.stringify(secret), 'utf8'), cipher.final()]);
    const legacy = { ciphertext, iv, tag: cipher.getAuthTag(), keyId: vaultKeyId(key), aadVersion: 1 as const };
    expect(vault.open(legacy, LOGIN)).toEqual(secret);
    // Claiming the new binding for a legacy ciphertext does not open it.
    expect(() => vault.open({ ...legacy, aadVersion: 2 }, LOGIN)).toThrow(VaultError);
  });

  it('rotates: the new key encrypts, old secrets still open, a missing key is a clear error', () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const before = createVault([oldKey]).seal(secret, LOGIN);
    const rotated = createVault([newKey, oldKey]);
    expect(rotated.open(before, LOGIN)).toEqual(secret);
    const after = rotated.seal(secret, LOGIN);
    expect(after.keyId).toBe(vaultKeyId(newKey));
    expect(createVault([newKey]).open(after, LOGIN)).toEqual(secret);
    expect(() => createVault([newKey]).open(before, LOGIN)).toThrow(new RegExp(`no configured vault key has id ${before.keyId}`));
  });

  it('STATEHOUSE_VAULT_KEY: a base64 list, first = current; bad values are a clear configuration error', () => {
    const k1 = randomBytes(32);
    const k2 = randomBytes(32);
    const config = loadConfig({ STATEHOUSE_VAULT_KEY: `${k1.toString('base64')}, ${k2.toString('base64')}` });
    expect(config.vaultKeys).toEqual([k1, k2]);
    expect(loadConfig({}).vaultKeys).toBeNull();
    for (const bad of ['not-a-key', randomBytes(16).toString('base64'), `${k1.toString('base64')},`]) {
      expect(() => loadConfig({ STATEHOUSE_VAULT_KEY: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ STATEHOUSE_VAULT_KEY: bad })).toThrow(/STATEHOUSE_VAULT_KEY must be base64 of 32 bytes/);
    }
  });

  it('without the variable, creates vault.key (mode 0600) in the data directory once and reuses it', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'statehouse-vault-'));
    dirs.push(dataDir);
    const [first] = loadVaultKeys({ vaultKeys: null, dataDir: path.join(dataDir, 'nested') });
    const file = path.join(dataDir, 'nested', 'vault.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64').equals(first!)).toBe(true);
    expect(loadVaultKeys({ vaultKeys: null, dataDir: path.join(dataDir, 'nested') })[0]!.equals(first!)).toBe(true);
    const configured = randomBytes(32);
    expect(loadVaultKeys({ vaultKeys: [configured], dataDir })).toEqual([configured]);
  });
});
