import { it } from 'vitest';
import { openDatabase } from './src/db/connect.js';
import { migrateToLatest } from './src/db/migrate.js';
it('t', async () => {
  let t = Date.now();
  const { db, close } = await openDatabase({ inMemory: true });
  console.log('open', Date.now() - t); t = Date.now();
  await migrateToLatest(db);
  console.log('migrate', Date.now() - t); t = Date.now();
  await migrateToLatest(db);
  console.log('migrate again', Date.now() - t); t = Date.now();
  await close();
}, 60000);
