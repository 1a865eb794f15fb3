import type { ScreenVariable } from './variables';

// A screen's or form's page as the designer, the preview and the form-fill page read it (spec §3 "Preview"):
// the canvas (width, height, theme, background colour and image, refresh seconds; the property panel's declaration is
// schemas/widgets/canvas.panel.json) with the page's id, name and revision. Framework-free, so the designer,
// the widgets' stage (widgets/stage) and the runtime share one copy without importing each other.

export interface CanvasProps {
  width: number;
  height: number;
  backgroundColor: string;
  refreshSeconds: number | null;
  /**
   * The screen theme's id (widgets/charts/themes.ts): the background when backgroundColor is empty, and the
   * charts' colours. Absent (a page saved before themes) or unknown: the default, 深蓝科技.
   */
  theme?: string;
  /** An image over the background colour, covering the canvas (the image rules of widgets/imageView). */
  backgroundImage?: string;
  /** The screen's variables (issue 23 §1; common/variables.ts); absent: none. */
  variables?: ScreenVariable[];
}

/** Spec: an empty background falls back to the dark default. */
export const DEFAULT_CANVAS_BACKGROUND = '#1D202D';

export interface DesignerPage extends CanvasProps {
  id: string;
  pageName: string;
  /** the copy the designer loaded; a save from a stale copy is refused by the server */
  revision: number;
}
