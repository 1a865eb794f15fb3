// Shared CSF pieces for widget stories: args are the kind's default view props, controls
// come from its JSON Schema (colours, enums, number limits).
import type { ArgTypes } from '@storybook/react-vite';
import type { RJSFSchema } from '@rjsf/utils';
import { getWidgetKind, SCREEN_FONT, WidgetView, type DatasourceProps, type ViewProps } from '../widgets';

export interface WidgetStoryArgs extends ViewProps {
  widgetName: string;
  datasourceProps?: DatasourceProps;
}

export function WidgetStory({ widgetName, datasourceProps, ...viewProps }: WidgetStoryArgs) {
  const kind = getWidgetKind(widgetName)!;
  const v = viewProps as ViewProps;
  return (
    <div style={{ width: v.width, height: v.height, position: 'relative', fontFamily: SCREEN_FONT }}>
      <WidgetView widgetName={widgetName} viewProps={v} datasourceProps={datasourceProps ?? kind.defaults.datasourceProps} />
    </div>
  );
}

export function widgetArgs(widgetName: string): WidgetStoryArgs {
  const kind = getWidgetKind(widgetName)!;
  return { widgetName, ...structuredClone(kind.defaults.viewProps) };
}

export function widgetArgTypes(widgetName: string): ArgTypes<WidgetStoryArgs> {
  const kind = getWidgetKind(widgetName)!;
  const out: Record<string, unknown> = { widgetName: { table: { disable: true } }, datasourceProps: { control: 'object' }, top: { table: { disable: true } }, left: { table: { disable: true } } };
  for (const [key, raw] of Object.entries(kind.viewSchema.properties ?? {})) {
    if (key in out || typeof raw !== 'object') continue;
    const s = raw as RJSFSchema;
    const ui = kind.uiSchema.viewProps[key] as { 'ui:widget'?: string } | undefined;
    const options = s.enum ?? s.oneOf?.map((o) => (o as RJSFSchema).const);
    let control: unknown;
    if (ui?.['ui:widget'] === 'color') control = { type: 'color' };
    else if (options) control = { type: 'select' };
    else if (s.type === 'integer' || s.type === 'number') control = { type: 'number', min: s.minimum, max: s.maximum };
    else if (s.type === 'boolean') control = { type: 'boolean' };
    else if (s.type === 'string') control = { type: 'text' };
    else control = { type: 'object' };
    out[key] = { name: s.title ?? key, control, ...(options ? { options } : {}), description: key };
  }
  return out as ArgTypes<WidgetStoryArgs>;
}
