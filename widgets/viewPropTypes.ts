// Per-kind view props, typed from each kind's widgets/<widgetName>/<widgetName>.widget.json by `npm run gen:types`
// (schemas/generated/widgets.ts). A placed widget's props are its schema defaults merged with what the
// designer set, so every declared property is present; only chartOption (an override) stays optional.
// A component takes `WidgetKindProps<ViewPropsOf<'barChart'>>`.
import type * as Gen from '../schemas/generated/widgets';
import type { ViewProps } from './types';

type Filled<T> = ViewProps & Required<Omit<T, 'chartOption'>> & ('chartOption' extends keyof T ? { chartOption?: Record<string, unknown> } : unknown);

export type ViewPropsOf<K extends keyof Gen.WidgetViewPropsByName> = Filled<Gen.WidgetViewPropsByName[K]>;
