// Data sources (spec part 1 §2 "Data-source list", §3, §5, §7): /api/gemini/datasource/*
// Models (spec part 1 §7 "Model"): the same entity as data sources, kept as their own list (kind 'model'),
// plus add (insert only), execute (bound SQL) and test: /api/gemini/model/*
import type { ServerModule } from '../../core/module.js';
import { seedDemoData } from './demo.js';
import { connectionPlugin, datasourceMigrations } from './shared.js';

export const datasourceModule: ServerModule = {
  name: 'datasource',
  prefix: '/api/gemini/datasource',
  service: 'platform',
  // the table is core/datasources.ts (the `sql` service reads it for the other modules); its migration comes with this module
  migrations: datasourceMigrations,
  // on a fresh store: a SQLite demo database registered as demo_sqlite, and a few system variables
  seed: seedDemoData,
  needs: ['secrets', 'sql'],
  plugin: connectionPlugin({ kind: 'datasource', pageId: 'datasource', perm: 'gemini:datasource', noun: '数据源' }),
};

export const modelModule: ServerModule = {
  name: 'model',
  prefix: '/api/gemini/model',
  service: 'platform',
  needs: ['secrets', 'sql'],
  plugin: connectionPlugin({ kind: 'model', pageId: 'model', perm: 'gemini:model', noun: '模型', modelRoutes: true }),
};
