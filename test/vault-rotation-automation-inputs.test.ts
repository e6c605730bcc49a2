import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVault, vaultKeyId } from '../src/crypto/vault.js';
import { inputAad } from '../src/modules/automations/automation-writer.js';
import { TEST_VAULT_KEY } from './helpers/app.js';
import { EDD, EDD_INPUT, startAutomationsFixture } from './helpers/automations.js';
import { runCli } from './helpers/cli.js';

/** `statehouse vault reencrypt` re-seals the sensitive inputs of automations too, so the old key can be dropped. */
describe('vault key rotation: automation inputs', () => {
  let f: Awaited<ReturnType<typeof startAutomationsFixture>>;
  const newKey = randomBytes(32);
  const strayKey = randomBytes(32);
  const ssns = ['1357', '2468'];
  const rows = () => f.t.db.selectFrom('automations').selectAll().orderBy('id').execute();
  const sealedOf = (row: Awaited<ReturnType<typeof rows>>[number]) => ({
    ciphertext: row.sealed_input!,
    iv: row.sealed_input_iv!,
    tag: row.sealed_input_tag!,
    keyId: row.sealed_input_key_id!,
  });
  const env = (...keys: Buffer[]) => ({ DATABASE_URL: f.t.url, STATEHOUSE_VAULT_KEY: keys.map((k) => k.toString('base64')).join(',') });

  beforeAll(async () => {
    // No connector: the automations wait in the operator queue, their input sealed and untouched by any step.
    f = await startAutomationsFixture({ automations: { sandbox: false } });
    for (const ssn of ssns) {
      const owner = await f.entity();
      const res = await owner.automate((await owner.task(EDD)).id, { ...EDD_INPUT, officer_ssn_last4: ssn });
      expect(res.statusCode, res.body).toBe(201);
    }
  });
  afterAll(async () => f.close());

  it('fails clearly, changing nothing, when an input’s key is not configured', async () => {
    // One input sealed under a key the rotation below is not given (as if an older rotation had been half done).
    // Its own input, re-sealed (row order by id is not creation order: which SSN it holds is read, not assumed).
    const [first] = await rows();
    const own = createVault([TEST_VAULT_KEY]).openBytes(sealedOf(first!), inputAad(first!.id));
    const stray = createVault([strayKey]).sealBytes(own, inputAad(first!.id));
    await f.t.db
      .updateTable('automations')
      .set({ sealed_input: stray.ciphertext, sealed_input_iv: stray.iv, sealed_input_tag: stray.tag, sealed_input_key_id: stray.keyId })
      .where('id', '=', first!.id)
      .execute();
    const instanceKeys = () => f.t.db.selectFrom('instance_secrets').select(['name', 'key_id']).orderBy('name').execute();
    const [beforeRows, beforeKeys] = [await rows(), await instanceKeys()];

    const result = await runCli(['vault', 'reencrypt'], env(newKey, TEST_VAULT_KEY));
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`no configured vault key has id ${vaultKeyId(strayKey)}`);
    for (const ssn of ssns) expect(result.stderr + result.stdout).not.toContain(ssn);
    expect(await rows()).toEqual(beforeRows);
    expect(await instanceKeys()).toEqual(beforeKeys); // checked before the instance keys were re-sealed
  });

  it('re-seals every input under the new key, bound to its automation, so the old keys can be dropped', async () => {
    const first = await runCli(['vault', 'reencrypt', '--json'], env(newKey, TEST_VAULT_KEY, strayKey));
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ automationInputsReencrypted: 2 });
    const after = await rows();
    expect(after.map((r) => r.sealed_input_key_id)).toEqual([vaultKeyId(newKey), vaultKeyId(newKey)]);
    const onlyNew = createVault([newKey]);
    const opened = after.map(
      (row) => JSON.parse(onlyNew.openBytes(sealedOf(row), inputAad(row.id)).toString('utf8')) as Record<string, unknown>,
    );
    expect(new Set(opened.map((o) => o.officer_ssn_last4))).toEqual(new Set(ssns));
    // Still bound to its own automation: a copy on another row does not open.
    expect(() => onlyNew.openBytes(sealedOf(after[0]!), inputAad(after[1]!.id))).toThrow(/failed authentication/);

    const again = await runCli(['vault', 'reencrypt', '--json'], env(newKey));
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ automationInputsReencrypted: 0, instanceKeysResealed: 0 });
    expect(await rows()).toEqual(after);
  }, 120_000);
});
