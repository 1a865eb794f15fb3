// Starts the real backend for a test: fresh temp DATA_DIR (or a fresh PostgreSQL schema),
// listening on 127.0.0.1:0, spoken to over real HTTP.
import { constants, publicEncrypt, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { queueSchemaOf } from '../core/scheduler.js';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import type { Envelope } from '../core/envelope.js';

export const TEST_PASSWORD = 'Test@12345';

export interface TestServer {
  url: string;
  /** admin's token. */
  token: string;
  dataDir: string;
  store: 'sqlite' | 'pg';
  loginAs(username: string, password?: string): Promise<string>;
  request<T = any>(method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH', path: string, body?: unknown, token?: string | null, headers?: Record<string, string>): Promise<{ http: number; body: Envelope<T>; headers: Record<string, string> }>;
  /** The running app (tests reach app.ctx.db for set-up through the store's own functions). */
  app: FastifyInstance;
  /** Runs raw SQL on this server's own store (test set-up only). */
  exec(sqlText: string): Promise<void>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  store?: 'sqlite' | 'pg';
  env?: Record<string, string>;
  /** Called with the built app before it listens (tests add hooks to observe it). */
  setup?: (app: FastifyInstance) => void;
}

/** The stores a server suite runs on: SQLite always, PostgreSQL too when PG_URL is set. */
export const testStores: ('sqlite' | 'pg')[] = process.env.PG_URL ? ['sqlite', 'pg'] : ['sqlite'];

/**
 * One server for the enclosing describe block: started before its tests, closed after them. The object answers
 * as that server once it has started (using it before then is a mistake in the test and throws).
 */
export function serverForSuite(opts: TestServerOptions = {}): TestServer {
  let started: TestServer | undefined;
  beforeAll(async () => {
    started = await startTestServer(opts);
  });
  afterAll(() => started?.close());
  return new Proxy({} as TestServer, {
    get(_, key) {
      if (!started) throw new Error('the suite server is used before it started (serverForSuite is for describe blocks)');
      return Reflect.get(started, key);
    },
  });
}

export function encryptFor(publicPem: string, plain: string): string {
  return publicEncrypt({ key: publicPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(plain)).toString('base64');
}

export async function startTestServer(opts: TestServerOptions = {}): Promise<TestServer> {
  const store = opts.store ?? 'sqlite';
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'console-test-'));
  const schema = store === 'pg' ? `t_${randomBytes(6).toString('hex')}` : undefined;
  if (store === 'pg' && !process.env.PG_URL) throw new Error('PG_URL is not set');
  const config = loadConfig({
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: TEST_PASSWORD,
    DEMO_PASSWORD: TEST_PASSWORD,
    DEMO_DATA: 'off',
    DIST_DIR: path.join(dataDir, 'no-dist'),
    ...(store === 'pg' ? { DATABASE_URL: process.env.PG_URL!, DATABASE_SCHEMA: schema! } : {}),
    ...opts.env,
  });
  const { app } = await buildApp(config);
  opts.setup?.(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  const url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;

  const request: TestServer['request'] = async (method, p, body, token, headers = {}) => {
    const res = await fetch(url + p, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { http: res.status, body: (await res.json()) as Envelope<any>, headers: Object.fromEntries(res.headers) };
  };

  let publicPem: string | undefined;
  const loginAs = async (username: string, password = TEST_PASSWORD) => {
    publicPem ??= (await request<string>('GET', '/api/uams/publicKey')).body.data;
    const r = await request<{ token: string }>('POST', '/api/uams/login', { loginType: 'password', area: '+86', mobilePhone: username, password: encryptFor(publicPem, password) });
    if (r.body.status !== 0) throw new Error(`login ${username} failed: ${r.body.msg}`);
    return r.body.data.token;
  };
  const token = await loginAs('admin');

  return {
    url,
    token,
    dataDir,
    app,
    store,
    loginAs,
    request: (method, p, body, tok = token, headers) => request(method, p, body, tok, headers),
    async exec(sqlText) {
      await sql.raw(sqlText).execute(app.ctx.db);
    },
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (schema) {
        const client = new pg.Client({ connectionString: process.env.PG_URL });
        await client.connect();
        await dropStoreSchemas(client, schema);
        await client.end();
      }
    },
  };
}

/** Drops a test deployment's PostgreSQL store schema and its scheduler's queue schema (pg-boss's, core/scheduler.ts). */
export async function dropStoreSchemas(client: pg.Client, schema: string): Promise<void> {
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.query(`DROP SCHEMA IF EXISTS "${queueSchemaOf(schema)}" CASCADE`);
}
