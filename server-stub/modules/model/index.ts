// Models (spec part 1 §7 "Model"): the same entity as data sources, kept as their own list (kind 'model'),
// plus add (insert only), execute (bound SQL) and test: /api/gemini/model/*
import type { ServerModule } from '../../core/module.js';
import { connectionPlugin } from '../datasource/shared.js';

export const modelModule: ServerModule = {
  name: 'model',
  prefix: '/api/gemini/model',
  service: 'platform',
  needs: ['secrets', 'sql'],
  plugin: connectionPlugin({ kind: 'model', pageId: 'model', perm: 'gemini:model', noun: '模型', modelRoutes: true }),
};
