// 系统管理 (issue 21): users and roles (users.ts, roles.ts), their pages declared in schemas/pages/user.page.json
// and role.page.json. The security rules every change here keeps are in access.ts.
import type { ServerModule } from '../../core/module.js';
import { roleRoutes } from './roles.js';
import { userRoutes } from './users.js';

export const systemModule: ServerModule = {
  name: 'system',
  prefix: '/api/system',
  service: 'admin',
  plugin: async (app) => {
    userRoutes(app);
    roleRoutes(app);
  },
};
