// `statehouse tokens rotate-key` and `statehouse vault reencrypt`: the instance's keys and what they seal.
import type { Config } from '../config.js';
import { reencryptLoginSecrets } from '../modules/accounts/vault-rotation.js';
import { createVault, loadVaultKeys } from '../crypto/vault.js';
import { createAutomationInputRotation } from '../modules/automations/index.js';
import { createCalendarTokenRotation } from '../modules/calendar/index.js';
import { INSTANCE_KEY } from '../modules/system/contract.js';
import { createSystemModule } from '../modules/system/index.js';
import { withDatabase } from './command-services.js';
import { print } from './output.js';

export async function rotateTokenKeyCommand(config: Config, json: boolean) {
  await withDatabase(config, async (database) => {
    await createSystemModule({ db: database.db, vault: createVault(loadVaultKeys(config)) }).instanceKeys.rotate(INSTANCE_KEY.accessTokens);
    print(
      json,
      { rotated: INSTANCE_KEY.accessTokens },
      'New access-token signing key stored; the previous one keeps verifying the tokens it signed. Every running statehouse serve process signs with the new key within a second (no restart).',
    );
  });
}

export async function reencryptCommand(config: Config, json: boolean) {
  await withDatabase(config, async (database) => {
    const vault = createVault(loadVaultKeys(config));
    const inputs = createAutomationInputRotation(database.db, vault);
    const calendarTokens = createCalendarTokenRotation(database.db, vault);
    // Automation inputs and calendar tokens checked, then instance keys: one that cannot be opened stops everything before any login is touched.
    await inputs.check();
    await calendarTokens.check();
    const { resealed: instanceKeysResealed } = await createSystemModule({ db: database.db, vault }).instanceKeys.reseal();
    const logins = await reencryptLoginSecrets(database.db, vault);
    const { reencrypted: automationInputsReencrypted } = await inputs.reencrypt();
    const { reencrypted: calendarTokensReencrypted } = await calendarTokens.reencrypt();
    const result = { ...logins, instanceKeysResealed, automationInputsReencrypted, calendarTokensReencrypted };
    print(
      json,
      result,
      `re-encrypted ${result.reencrypted} login secrets with the current vault key (${result.alreadyCurrent} already were), re-sealed ${result.instanceKeysResealed} instance keys, ${automationInputsReencrypted} automation inputs and ${calendarTokensReencrypted} calendar URLs`,
    );
  });
}
