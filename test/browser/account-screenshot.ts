// `make screenshot`: photographs the account page for the docs (docs/images/account-page.png). It starts the gateway
// as `make run` does (embedded database, in a temp folder, default catalog), adds an account through the folder's
// socket as the CLI would (two keys, 20 USD, the history of account-page-fixture.ts), signs in with an account token
// in headless Chromium (playwright-core; CHROMIUM_PATH or Debian's /usr/bin/chromium) and saves the whole page at
// 1280 px. Usage: npx tsx test/browser/account-screenshot.ts [OUT_FILE]
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { issueAccountToken, issueApiKey } from '../../src/auth/issue-credentials.js';
import { newId } from '../../src/auth/secrets.js';
import { loadConfig } from '../../src/config.js';
import { openCommandDatabase } from '../../src/db/data-folder/open-data-folder.js';
import { createLogger } from '../../src/logger.js';
import { grantCredits } from '../../src/repositories/credits.js';
import { findOrCreateUserByEmail } from '../../src/repositories/users.js';
import { startGateway } from '../../src/server.js';
import { seedAccountHistory } from './account-page-fixture.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** An account as a newcomer's would look after a couple of weeks; returns its account token. */
async function seedAccount(dataDir: string): Promise<string> {
  const database = await openCommandDatabase({ dataDir });
  try {
    const user = await findOrCreateUserByEmail(database.db, 'ana@example.com', () => newId('usr_'));
    await issueApiKey(database.db, { organizationId: user.id, memberUserId: user.id, name: 'laptop' });
    await issueApiKey(database.db, { organizationId: user.id, memberUserId: user.id, name: 'ci' });
    await grantCredits(database.db, { userId: user.id, amountNanos: 20_000_000_000n, note: 'screenshot' });
    await seedAccountHistory(database.db, user.id);
    return (await issueAccountToken(database.db, { userId: user.id })).secret;
  } finally {
    await database.close();
  }
}

async function main(outFile: string): Promise<void> {
  if (!existsSync(CHROMIUM))
    throw new Error(`no Chromium at ${CHROMIUM}: install it (apt-get install -y chromium) or set CHROMIUM_PATH`);
  const dataDir = mkdtempSync(join(tmpdir(), 'modelgate-screenshot-'));
  const env = { PORT: '0', HOST: '127.0.0.1', MODELGATE_DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  const gateway = await startGateway(loadConfig(env), { env, logger: createLogger('silent') });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: 30_000 });
  try {
    const token = await seedAccount(dataDir);
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(`${gateway.url}/account`);
    await page.getByLabel('Account token or API key').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#pass-meters meter').nth(2).waitFor();
    await page.locator('#chart-cost').waitFor();
    await page.locator('#generation-rows tr').nth(23).waitFor();
    // The keyboard focus ring on the sign-in field's successor would be the picture's brightest spot.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    // The gateway keeps its files private (umask 077); the picture is for everyone.
    mkdirSync(dirname(outFile), { recursive: true, mode: 0o755 });
    await page.screenshot({ path: outFile, fullPage: true });
    chmodSync(outFile, 0o644);
    console.log(`account page screenshot: ${outFile}`);
  } finally {
    await browser.close();
    await gateway.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main(resolve(process.argv[2] ?? 'docs/images/account-page.png')).catch((err) => {
  console.error(`screenshot failed: ${(err as Error).message}`);
  process.exitCode = 1;
});
