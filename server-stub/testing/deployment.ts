// Two instances of one deployment for a server test's describe block: one fresh PostgreSQL schema (and the
// scheduler's queue schema beside it), one Redis, one DATA_DIR (as several instances need), INSTANCE_ID a and b.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { dropStoreSchemas, startTestServer, type TestServer } from './server.js';

export interface TwoInstances {
  a: TestServer;
  b: TestServer;
  dataDir: string;
}

/** Starts a and b before the block's tests (a first: it migrates the store) and closes and drops them after. */
export function twoInstancesForSuite(env: Record<string, string> = {}): TwoInstances {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'two-'));
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const started: Partial<TwoInstances> = { dataDir };
  beforeAll(async () => {
    const shared = { DATA_DIR: dataDir, DATABASE_URL: process.env.PG_URL!, DATABASE_SCHEMA: schema, REDIS_URL: process.env.REDIS_URL!, LOGINS_PER_MINUTE: '1000', ...env };
    started.a = await startTestServer({ env: { ...shared, INSTANCE_ID: 'a' } });
    started.b = await startTestServer({ env: { ...shared, INSTANCE_ID: 'b' } });
  });
  afterAll(async () => {
    await started.a?.close();
    await started.b?.close();
    rmSync(dataDir, { recursive: true, force: true });
    const client = new pg.Client({ connectionString: process.env.PG_URL });
    await client.connect();
    await dropStoreSchemas(client, schema);
    await client.end();
  });
  return {
    get a() {
      if (!started.a) throw new Error('instance a is used before it started');
      return started.a;
    },
    get b() {
      if (!started.b) throw new Error('instance b is used before it started');
      return started.b;
    },
    dataDir,
  };
}
