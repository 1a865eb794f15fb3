// FTP servers: /api/remote/ftp/* (searchList, save, delete, validateConn, encrypt, select).
// ETL servers: /api/remote/etl/* (searchList, save, delete, validateConn over SSH, queryEtlList, encrypt).
// One table (remote_server), one route builder (remote.ts), told apart by kind.
import { ok } from '../../core/envelope.js';
import type { ServerModule } from '../../core/module.js';
import { testFtp } from '../../connectors/ftp/index.js';
import { testSsh } from '../../connectors/ssh/index.js';
import { REMOTE_TEST_SECONDS } from '../../connectors/errors.js';
import { TABLE, remoteMigrations, remotePlugin } from './remote.js';

export const ftpModule: ServerModule = {
  name: 'ftp',
  prefix: '/api/remote/ftp',
  service: 'platform',
  migrations: remoteMigrations,
  needs: ['secrets'],
  plugin: remotePlugin({
    kind: 'ftp',
    perm: 'remote:ftp',
    test: (s, onError) => testFtp(s, { timeout: REMOTE_TEST_SECONDS, onError }),
    extra: (app) => {
      // The select list (spec: "a select-list call returns a list in data"): enabled FTP servers.
      app.get('/select', { config: { perm: 'remote:ftp:list' } }, async () => {
        const rows = await app.ctx.db.selectFrom(TABLE).select(['id', 'node_code', 'node_name', 'ip', 'port', 'env_type']).where('kind', '=', 'ftp').where('status', '=', 1).orderBy('node_name').execute();
        return ok(rows.map((r) => ({ id: r.id, nodeCode: r.node_code, nodeName: r.node_name, ip: r.ip, port: r.port, envType: r.env_type, text: r.node_name, value: r.node_code })));
      });
    },
  }),
};

export const etlModule: ServerModule = {
  name: 'etl',
  prefix: '/api/remote/etl',
  service: 'platform',
  needs: ['secrets'],
  plugin: remotePlugin({
    kind: 'etl',
    perm: 'remote:etl',
    test: (s, onError) => testSsh(s, { timeout: REMOTE_TEST_SECONDS, onError }),
    extra: (app) => {
      app.get('/queryEtlList', { config: { perm: 'remote:etl:list' } }, async () => {
        const rows = await app.ctx.db.selectFrom(TABLE).select(['id', 'ip', 'node_name', 'port', 'env_type']).where('kind', '=', 'etl').where('status', '=', 1).orderBy('node_name').execute();
        return ok(rows.map((r) => ({ id: r.id, ip: r.ip, nodeName: r.node_name, port: r.port, envType: r.env_type })));
      });
    },
  }),
};
