// 系统管理 (issue 21): users and roles (users.ts, roles.ts), departments and posts (org.ts, issue 34), the operation and sign-in logs (kept by the audit
// service, core/audit.ts), each page declared in schemas/pages/ (user, role, roleUser, operLog, loginLog). The
// security rules every change here keeps are in access.ts.
import { loginLogs, operLogs } from '../../core/audit.js';
import type { ServerModule } from '../../core/module.js';
import { listPageRoutes } from '../../core/tables.js';
import { menuRoutes } from './menus.js';
import { onlineRoutes } from './online.js';
import { orgRoutes } from './org.js';
import { roleRoutes } from './roles.js';
import { userRoutes } from './users.js';

export const systemModule: ServerModule = {
  name: 'system',
  prefix: '/api/system',
  service: 'admin',
  needs: ['audit', 'dicts', 'org', 'versions', 'workspace'],
  plugin: async (app) => {
    userRoutes(app);
    roleRoutes(app);
    menuRoutes(app);
    orgRoutes(app);
    onlineRoutes(app);
    // the logs the audit service keeps: read and exported here, never written or deleted through the API
    listPageRoutes(app, operLogs, { page: 'operLog', notFound: '日志不存在' });
    listPageRoutes(app, loginLogs, { page: 'loginLog', notFound: '日志不存在', filters: { result: { type: ['array', 'null'], maxItems: 2, items: { type: 'integer', enum: [0, 1] }, title: '结果' } } });
  },
};
