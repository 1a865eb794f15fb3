// Data sources (spec part 1 §2 "Data-source list", §3, §5, §7): /api/gemini/datasource/*
import type { ServerModule } from '../../core/module.js';
import { seedDemoData } from './demo.js';
import { connectionPlugin, datasourceMigrations } from './shared.js';

export const datasourceModule: ServerModule = {
  name: 'datasource',
  prefix: '/api/gemini/datasource',
  service: 'platform',
  migrations: datasourceMigrations,
  // on a fresh store: a SQLite demo database registered as demo_sqlite, and a few system variables
  seed: seedDemoData,
  needs: ['secrets', 'sql'],
  plugin: connectionPlugin({ kind: 'datasource', pageId: 'datasource', perm: 'gemini:datasource', noun: '数据源' }),
};
