// The data-API platform (spec part 2 §1–9 "API design and approval"): groups, designs and their
// configuration, the test run, approval with frozen versions, online / offline, keys — all under
// /api/gemini/api — and the published APIs with their OpenAPI document under /open.
import type { ServerModule } from '../../core/module.js';
import { approveRoutes } from './approve.js';
import { auditMigrations, auditRoutes } from './audit.js';
import { designRoutes } from './design.js';
import { groupRoutes } from './groups.js';
import { guardMigrations, guardRoutes } from './guard.js';
import { keyRoutes } from './keys.js';
import { callRecorder } from './calls.js';
import { monitorMigrations, monitorRoutes } from './monitor.js';
import { pickerRoutes } from './picker.js';
import { publishedRoutes } from './published.js';
import { apiMigrations } from './tables.js';
import { registerApiWorkspace, transferRoutes } from './transfer.js';

export const apiPlatformModule: ServerModule = {
  name: 'apiplatform',
  prefix: '/api/gemini/api',
  service: 'platform',
  migrations: { ...apiMigrations, ...auditMigrations, ...guardMigrations, ...monitorMigrations },
  needs: ['sql', 'limits', 'workspace', 'recycle', 'secrets', 'notifier'],
  plugin: async (app) => {
    groupRoutes(app);
    designRoutes(app);
    auditRoutes(app);
    approveRoutes(app);
    keyRoutes(app);
    guardRoutes(app);
    pickerRoutes(app);
    transferRoutes(app);
    registerApiWorkspace(app);
    const calls = callRecorder(app);
    monitorRoutes(app, () => calls.flush());
  },
};

export const openApiModule: ServerModule = {
  name: 'openapi',
  prefix: '/open',
  service: 'platform',
  needs: ['sql', 'limits'],
  plugin: async (app) => {
    await publishedRoutes(app);
  },
};
