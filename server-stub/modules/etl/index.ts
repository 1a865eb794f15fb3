// ETL servers: /api/remote/etl/* (searchList, save, delete, validateConn over SSH, queryEtlList, encrypt).
import { ok } from '../../core/envelope.js';
import type { ServerModule } from '../../core/module.js';
import { testSsh } from '../../connectors/ssh/index.js';
import { TABLE, remotePlugin } from '../ftp/remote.js';

export const etlModule: ServerModule = {
  name: 'etl',
  prefix: '/api/remote/etl',
  service: 'platform',
  needs: ['secrets'],
  plugin: remotePlugin({
    kind: 'etl',
    perm: 'remote:etl',
    test: (s, onError) => testSsh(s, { timeout: 10, onError }),
    extra: (app) => {
      app.get('/queryEtlList', { config: { perm: 'remote:etl:list' } }, async () => {
        const rows = await app.ctx.db.selectFrom(TABLE).select(['id', 'ip', 'node_name', 'port', 'env_type']).where('kind', '=', 'etl').where('status', '=', 1).orderBy('node_name').execute();
        return ok(rows.map((r) => ({ id: r.id, ip: r.ip, nodeName: r.node_name, port: r.port, envType: r.env_type })));
      });
    },
  }),
};
