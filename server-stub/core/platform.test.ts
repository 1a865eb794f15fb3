// Platform services are plugins that modules name (core/platform.ts): a module is refused at start when a service
// it needs is not registered, and reaches the registered ones as app.<name> from its own scope.
import Fastify from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { modulePlugin, platformServices, targetPolicy } from './platform.js';
import { Secrets } from './secrets.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function bareApp() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'platform-'));
  dirs.push(dataDir);
  const app = Fastify();
  app.decorate('ctx', { config: { dataDir, sqlSourcesPerCaller: 2 } } as any);
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

  it('keeps the platform store out of the data sources', () => {
    expect(targetPolicy('postgres://u@db.example:5433/console')).toEqual({ reserved: [{ host: 'db.example', port: 5433, database: 'console' }] });
    expect(targetPolicy(undefined)).toEqual({});
  });
});
