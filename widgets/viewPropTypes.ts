// Per-kind view props, typed from schemas/widgets/*.widget.json by `npm run gen:types`
// (schemas/generated/widgets.ts). A placed widget's props are its schema defaults merged with what the
// designer set, so every declared property is present; only chartOption (an override) stays optional.
import type * as Gen from '../schemas/generated/widgets';
import type { ViewProps } from './types';

type Filled<T> = ViewProps & Required<Omit<T, 'chartOption'>> & ('chartOption' extends keyof T ? { chartOption?: Record<string, unknown> } : unknown);

export type SingleLineTitleViewProps = Filled<Gen.SingleLineTitleViewProps>;
export type BorderBoxViewProps = Filled<Gen.BorderBoxViewProps>;
export type CarouselViewProps = Filled<Gen.CarouselViewProps>;
export type ActiveRingViewProps = Filled<Gen.ActiveRingViewProps>;
export type ScrollTableViewProps = Filled<Gen.ScrollTableViewProps>;
export type BarChartViewProps = Filled<Gen.BarChartViewProps>;
export type FormInputViewProps = Filled<Gen.FormInputViewProps>;
export type FormTextareaViewProps = Filled<Gen.FormTextareaViewProps>;
export type FormNumberViewProps = Filled<Gen.FormNumberViewProps>;
export type FormSelectViewProps = Filled<Gen.FormSelectViewProps>;
export type FormRadioViewProps = Filled<Gen.FormRadioViewProps>;
export type FormCheckboxViewProps = Filled<Gen.FormCheckboxViewProps>;
export type FormSwitchViewProps = Filled<Gen.FormSwitchViewProps>;
export type FormDateViewProps = Filled<Gen.FormDateViewProps>;
export type FormDateRangeViewProps = Filled<Gen.FormDateRangeViewProps>;
export type FormImageViewProps = Filled<Gen.FormImageViewProps>;
export type FormSubmitViewProps = Filled<Gen.FormSubmitViewProps>;
