// Canvas properties (spec: width, height, background colour, refresh seconds) share the panel.
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import declaration from '../../schemas/widgets/canvas.panel.json';
import { defaultsOf } from '../../common/widgets';

export interface CanvasProps {
  width: number;
  height: number;
  backgroundColor: string;
  refreshSeconds: number | null;
}

export const canvasSchema = declaration.schema as RJSFSchema;
export const canvasUiSchema = declaration.uiSchema as UiSchema;
export const canvasDefaults = defaultsOf(canvasSchema) as CanvasProps;

/** Spec: an empty background falls back to the dark default. */
export const DEFAULT_CANVAS_BACKGROUND = '#1D202D';
