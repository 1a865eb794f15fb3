// Canvas properties (spec: width, height, background colour, refresh seconds) share the panel.
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import declaration from '../../schemas/widgets/canvas.panel.json';
import { defaultsOf } from '../../common/widgets';
import type { CanvasProps } from '../../common/canvas';

// the canvas's shape and its empty-background default are common/canvas.ts's (the preview's stage reads them too)
export { DEFAULT_CANVAS_BACKGROUND, type CanvasProps } from '../../common/canvas';

export const canvasSchema = declaration.schema as RJSFSchema;
export const canvasUiSchema = declaration.uiSchema as UiSchema;
export const canvasDefaults = defaultsOf(canvasSchema) as CanvasProps;
