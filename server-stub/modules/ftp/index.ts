// FTP servers: /api/remote/ftp/* (searchList, save, delete, validateConn, encrypt, select).
// ETL servers: /api/remote/etl/* (searchList, save, delete, validateConn over SSH, queryEtlList, encrypt).
// One table (remote_server), one route builder (remote.ts), told apart by kind.
import { testFtp } from '../../connectors/ftp/index.js';
import { testSsh } from '../../connectors/ssh/index.js';
import { remoteModule } from './remote.js';

export const ftpModule = remoteModule({
  kind: 'ftp',
  perm: 'remote:ftp',
  test: testFtp,
  // The select list (spec: "a select-list call returns a list in data"): enabled FTP servers.
  enabled: {
    path: '/select',
    columns: ['id', 'node_code', 'node_name', 'ip', 'port', 'env_type'],
    answer: (r) => ({ id: r.id, nodeCode: r.node_code, nodeName: r.node_name, ip: r.ip, port: r.port, envType: r.env_type, text: r.node_name, value: r.node_code }),
  },
});

export const etlModule = remoteModule({
  kind: 'etl',
  perm: 'remote:etl',
  test: testSsh,
  enabled: {
    path: '/queryEtlList',
    columns: ['id', 'ip', 'node_name', 'port', 'env_type'],
    answer: (r) => ({ id: r.id, ip: r.ip, nodeName: r.node_name, port: r.port, envType: r.env_type }),
  },
});
