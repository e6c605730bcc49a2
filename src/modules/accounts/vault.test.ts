import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';
import { createVault, loadVaultKeys, vaultKeyId, VaultError } from './vault.js';

const secret = { username: 'owner@example.com', password: 'hunter2-correct-horse', security_answers: [{ question: 'pet', answer: 'Rex' }], totp_seed: 'JBSWY3DPEHPK3PXP' };

describe('login vault', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('round-trips a secret; the ciphertext holds no plaintext and each seal uses a fresh 96-bit IV', () => {
    const key = randomBytes(32);
    const vault = createVault([key]);
    const a = vault.seal(secret);
    const b = vault.seal(secret);
    expect(a.iv).toHaveLength(12);
    expect(a.tag).toHaveLength(16);
    expect(a.iv.equals(b.iv)).toBe(false);
    expect(a.ciphertext.equals(b.ciphertext)).toBe(false);
    expect(a.keyId).toBe(vaultKeyId(key));
    expect(a.keyId).toMatch(/^[0-9a-f]{8}$/);
    expect(a.ciphertext.toString('latin1')).not.toContain('hunter2');
    expect(vault.open(a)).toEqual(secret);
  });

  it('detects tampering without revealing anything', () => {
    const vault = createVault([randomBytes(32)]);
    const sealed = vault.seal(secret);
    const flipped = Buffer.from(sealed.ciphertext);
    flipped[0]! ^= 1;
    expect(() => vault.open({ ...sealed, ciphertext: flipped })).toThrow(VaultError);
    expect(() => vault.open({ ...sealed, ciphertext: flipped })).not.toThrow(/hunter2/);
  });

  it('rotates: the new key encrypts, old secrets still open, a missing key is a clear error', () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const before = createVault([oldKey]).seal(secret);
    const rotated = createVault([newKey, oldKey]);
    expect(rotated.open(before)).toEqual(secret);
    const after = rotated.seal(secret);
    expect(after.keyId).toBe(vaultKeyId(newKey));
    expect(createVault([newKey]).open(after)).toEqual(secret);
    expect(() => createVault([newKey]).open(before)).toThrow(new RegExp(`no configured vault key has id ${before.keyId}`));
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
