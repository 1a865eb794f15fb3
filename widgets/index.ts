export * from './types';
export * from './registry';
export { WidgetView } from './WidgetView';
export { WidgetDataContext, type FetchApiData, type ApiDataRequest, type FetchDataset, type DatasetAnswer } from './data/WidgetDataContext';
export { FieldFiltersContext, createFieldFilterStore, useFieldFilterStore, type FieldFilterStore } from './data/fieldFilters';
export { datasetQueryOf, answerMapping, slotKey } from './data/datasetQuery';
export { createRefreshSignal, useRefreshSignal, type RefreshSignal } from './data/refreshSignal';
export { applyMapping, describeProblem } from './data/mapping';
export { WidgetIcon } from './icons';
// from charts/renderer, not charts/echarts: importing widgets/ must not load echarts (kindCode.ts)
export { ChartRendererContext, liveChartCount, type ChartRenderer } from './charts/renderer';
export { SCREEN_FONT } from './theme';
export { DEFAULT_THEME, SCREEN_THEMES, ScreenThemeContext, screenTheme, type ScreenTheme } from './charts/themes';
export { liveIntervalCount, WidgetMotionContext } from './timing/sharedInterval';
export { VariablesContext, createVariableStore, useVariable, useVariableStore, NO_VARIABLES, type VariableStore } from './data/variables';
export { InteractionContext, createInteractionRuntime, openInBrowser, type InteractionRuntime, type OpenUrl } from './data/interaction';
