// The feature modules. Each is one Fastify plugin under its prefix with its own migrations
// (see core/module.ts). Sign-in and menus are wired in app.ts because they need the session store.
import type { ServerModule } from '../core/module.js';
import { dictModule } from './dict/index.js';
import { datasourceModule, modelModule } from './datasource/index.js';
import { variableModule } from './variable/index.js';
import { etlModule, ftpModule } from './ftp/index.js';
import { sqlQueryModule } from './sqlquery/index.js';
import { imageFilesModule, imageModule } from './image/index.js';
import { lowcodeModule } from './lowcode/index.js';
import { apiPlatformModule, openApiModule } from './apiplatform/index.js';
import { datavScreenModule, jimuFormModule } from './datav/index.js';
import { monitorModule } from './monitor/index.js';
import { wikiModule } from './wiki/index.js';
import { systemModule } from './system/index.js';
import { sheetsModule } from './sheets/index.js';
import { datasetModule } from './dataset/index.js';
import { historyModule } from './history/index.js';
import { workspaceModule } from './workspace/index.js';
import { notifyModule } from './notify/index.js';
import { jobModule } from './job/index.js';

export const modules: ServerModule[] = [
  dictModule,
  datasourceModule,
  modelModule,
  variableModule,
  ftpModule,
  etlModule,
  sqlQueryModule,
  imageModule,
  imageFilesModule,
  lowcodeModule,
  apiPlatformModule,
  openApiModule,
  datavScreenModule,
  jimuFormModule,
  monitorModule,
  wikiModule,
  systemModule,
  sheetsModule,
  datasetModule,
  historyModule,
  workspaceModule,
  notifyModule,
  jobModule,
];
