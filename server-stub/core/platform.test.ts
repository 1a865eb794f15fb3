// Platform services are plugins that modules name (core/platform.ts): a module is refused at start when a service
// it needs is not registered, and reaches the registered ones as app.<name> from its own scope.
import Fastify from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { modulePlugin, platformServices, targetPolicy } from './platform.js';
import { Secrets } from './secrets.js';
import { installErrorHandling } from './errors.js';
import { UPLOAD } from './uploads.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function bareApp(config: Record<string, unknown> = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'platform-'));
  dirs.push(dataDir);
  const app = Fastify();
  app.decorate('ctx', { config: { dataDir, sqlSourcesPerCaller: 2, minFreeDiskBytes: 0, operLogDays: 180, ...config }, log: { error: () => undefined, warn: () => undefined } } as any);
  return app;
}

describe('platform services', () => {
  it('refuses a module whose service is not registered, naming both', async () => {
    const app = bareApp();
    await app.register(platformServices[0]); // secrets only
    app.register(modulePlugin({ name: 'needs-sql', needs: ['secrets', 'sql'], plugin: async () => {} }));
    await expect(app.ready()).rejects.toThrow("The dependency 'sql' of plugin 'needs-sql' is not registered");
    await app.close().catch(() => undefined);
  });

  it('refuses the sql service without the secrets service it opens data-source passwords with', async () => {
    const app = bareApp();
    await expect(app.register(platformServices[1])).rejects.toThrow("The dependency 'secrets' of plugin 'sql' is not registered");
    await app.close().catch(() => undefined);
  });

  it('gives a module the registered services in its own scope, which stays encapsulated', async () => {
    const app = bareApp();
    for (const s of platformServices) await app.register(s);
    let seen: unknown[] = [];
    await app.register(
      async (scope) => {
        await scope.register(
          modulePlugin({
            name: 'uses-both',
            needs: ['secrets', 'sql'],
            plugin: async (m) => {
              seen = [m.secrets instanceof Secrets, typeof m.sql.pools.execute, typeof m.sql.source, typeof m.sql.run, m.sql.policy];
              m.decorate('ownThing', 1);
              m.get('/ping', async () => 'pong');
            },
          }),
        );
      },
      { prefix: '/api/x' },
    );
    await app.ready();
    expect(seen).toEqual([true, 'function', 'function', 'function', {}]);
    expect(app.hasDecorator('ownThing')).toBe(false);
    expect((await app.inject('/api/x/ping')).body).toBe('pong');
    await app.close();
  });

  it('limits per address only the routes of the scope that asked, answering the envelope 429', async () => {
    const app = bareApp();
    installErrorHandling(app);
    for (const s of platformServices) await app.register(s);
    const limitedModule = modulePlugin({
      name: 'limited',
      needs: ['limits'],
      plugin: async (m) => {
        await m.limits.register(m, 'test:');
        m.get('/a', { config: { rateLimit: { max: 2, timeWindow: 60_000 } } }, async () => 'a');
        m.get('/b', async () => 'b');
      },
    });
    await app.register(async (scope) => scope.register(limitedModule), { prefix: '/l' });
    await app.register(async (scope) => scope.register(modulePlugin({ name: 'other', plugin: async (m) => void m.get('/c', { config: { rateLimit: { max: 1, timeWindow: 60_000 } } }, async () => 'c') })), { prefix: '/o' });
    await app.ready();
    const codes = async (url: string, n: number) => {
      const out: number[] = [];
      for (let i = 0; i < n; i++) out.push((await app.inject(url)).statusCode);
      return out;
    };
    expect(await codes('/l/a', 3)).toEqual([200, 200, 429]);
    expect((await app.inject('/l/a')).json()).toMatchObject({ status: 1, msg: '请求过于频繁，请稍后再试' });
    expect(await codes('/l/b', 5)).toEqual([200, 200, 200, 200, 200]);
    expect(await codes('/o/c', 3)).toEqual([200, 200, 200]); // another module's scope carries no limit
    await app.close();
  });

  it('refuses a module that needs limits when the service is not registered', async () => {
    const app = bareApp();
    await app.register(platformServices[0]);
    app.register(modulePlugin({ name: 'fill', needs: ['limits'], plugin: async () => {} }));
    await expect(app.ready()).rejects.toThrow("The dependency 'limits' of plugin 'fill' is not registered");
    await app.close().catch(() => undefined);
  });

  it('takes uploads in the scopes that accept them, and refuses while the disk is short of MIN_FREE_DISK_MB', async () => {
    const app = bareApp({ minFreeDiskBytes: Number.MAX_SAFE_INTEGER });
    installErrorHandling(app);
    for (const s of platformServices) await app.register(s);
    await app.register(
      modulePlugin({
        name: 'takes-files',
        needs: ['uploads'],
        plugin: async (m) => {
          await m.uploads.accept(m, UPLOAD);
          await m.uploads.accept(m, UPLOAD); // once per scope
          m.post('/up', async (req) => m.uploads.receive(req, UPLOAD));
          m.get('/room', async () => m.uploads.checkRoom());
        },
      }),
    );
    await app.ready();
    const body = '--b\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nx\r\n--b--\r\n';
    const up = await app.inject({ method: 'POST', url: '/up', headers: { 'content-type': 'multipart/form-data; boundary=b' }, payload: body });
    expect([up.statusCode, up.json()]).toEqual([507, { status: 1, msg: '服务器存储空间不足，暂时不能保存，请联系管理员', data: null }]);
    expect((await app.inject('/room')).statusCode).toBe(507);
    await app.close();
  });

  it('keeps the platform store out of the data sources', () => {
    expect(targetPolicy('postgres://u@db.example:5433/console')).toEqual({ reserved: [{ host: 'db.example', port: 5433, database: 'console' }] });
    expect(targetPolicy(undefined)).toEqual({});
  });
});
