export { SchemaPanel, type SchemaPanelProps } from './SchemaPanel';
export { RightPanel, type RightPanelProps } from './RightPanel';
export { canvasSchema, canvasUiSchema, canvasDefaults, DEFAULT_CANVAS_BACKGROUND, type CanvasProps } from './canvasPanel';
export type { PanelServices, ApiOption, ImageOption } from './services';
export { StaticDataEditor } from './fields/StaticDataEditor';
export { JsonEditor } from './editor/JsonEditor';
