// The screen (大屏) and form (表单) designers' backend (spec part 2 "Screen designer", "New dialogs",
// §3 page / widget / catalogue, §4, §5, §7 calls): one plugin, two configurations —
//   /api/datav/screen/*  (datav:screen:list|add|edit|remove)
//   /api/jimu/form/*     (jimu:form:list|add|edit|remove)
// Both keep their pages and widgets in datav_page / datav_widget, told apart by kind. Forms also take
// submissions (fill/*, public routes the form's own fill_access decides) and list their entries (entry/*).
import type { ServerModule } from '../../core/module.js';
import { FORM, messagesOf, SCREEN, type KindConfig } from './kinds.js';
import { pageRoutes } from './pages.js';
import { entryRoutes } from './entries.js';
import { fillRoutes } from './fill.js';
import { datavMigrations } from './tables.js';
import { widgetRoutes } from './widgets.js';
import { loadTemplates, templateRoutes } from './templates.js';
import { thumbnailRoutes } from './thumbnails.js';
import { registerVersions } from './versions.js';
import { registerScreenWorkspace } from './workspace.js';

function designerModule(cfg: KindConfig, migrations?: ServerModule['migrations']): ServerModule {
  return {
    name: `datav-${cfg.kind}`,
    prefix: cfg.prefix,
    service: 'platform',
    migrations,
    // the form's fill-in routes: per-address limits, images uploaded while filling in; a screen's thumbnail upload
    needs: cfg.kind === 'form' ? ['limits', 'uploads', 'datasets', 'org', 'versions', 'recycle', 'workspace'] : ['uploads', 'versions', 'recycle', 'workspace'],
    plugin: async (app) => {
      const msg = messagesOf(cfg.noun);
      // screens start from a shipped template or a blank canvas, and carry a thumbnail taken at save (issue 22)
      const templates = cfg.kind === 'screen' ? loadTemplates(app) : null;
      const { checkCanvas } = pageRoutes(app, cfg, msg, templates);
      const { checkWidgets, writeWidgets } = widgetRoutes(app, cfg, msg);
      // each save keeps a version; a version is restored through the same checks, in one transaction (issue 37)
      registerVersions(app, cfg, { checkCanvas, checkWidgets, writeWidgets });
      // a workspace export and import carry the page checked as these saves check it (issue 37 item 3)
      registerScreenWorkspace(app, cfg, { checkWidgets, checkCanvas });
      if (templates) {
        templateRoutes(app, cfg, templates);
        await thumbnailRoutes(app, cfg, msg);
      }
      if (cfg.kind === 'form') {
        await fillRoutes(app, cfg, msg);
        entryRoutes(app, cfg, msg);
      }
    },
  };
}

/** Screens; it carries the tables' migration for both. */
export const datavScreenModule = designerModule(SCREEN, datavMigrations);
export const jimuFormModule = designerModule(FORM);
