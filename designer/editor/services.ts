// What a designer needs from its host: the screen's or form's calls (spec §7 /datav/screen/*, /jimu/form/*)
// and the panel's services. The runtime hands in the HTTP ones; stories hand in in-memory ones.
import type { CatalogueEntry, WidgetEntity } from '../../widgets';
import type { DesignerPage } from '../../common/canvas';
import type { PanelServices } from '../panel/services';

/** The page a designer edits: its canvas, name and revision (common/canvas.ts: the preview reads it too). */
export type { DesignerPage };

export interface DesignerServices {
  loadPage(id: string): Promise<DesignerPage>;
  loadWidgets(pageId: string): Promise<WidgetEntity[]>;
  catalogue(): Promise<CatalogueEntry[]>;
  /** Creates the widget on the server (the kind's defaults filled in there) and answers it. */
  addWidget(req: { pageId: string; widgetName: string; top: number; left: number }): Promise<WidgetEntity>;
  savePage(page: DesignerPage): Promise<DesignerPage>;
  saveWidgets(pageId: string, widgets: readonly WidgetEntity[]): Promise<WidgetEntity[]>;
  /** 不保存: deletes widgets addWidget created since the last save, so the page is as saved. */
  discardWidgets?(pageId: string, ids: readonly string[]): Promise<void>;
  /** The same while the browser unloads the page (reload or close after asking): cannot be awaited. */
  discardOnUnload?(pageId: string, ids: readonly string[]): void;
  panel?: PanelServices;
  /**
   * Stores the picture of the page taken at a save (screens: the list shows it). Absent: no picture is taken.
   * A failure is the designer's to ignore: the save itself has succeeded.
   */
  saveThumbnail?(pageId: string, picture: Blob, fileName: string): Promise<void>;
}

/** One component, two configurations (issue 9 §3). */
export interface DesignerConfig {
  kind: 'screen' | 'form';
  /** 大屏 / 表单 */
  noun: string;
  previewUrl(pageId: string): string;
  /** The signed-in user's id: the view settings (网格吸附) are remembered per user. */
  user?: string;
}
