export * from './types';
export * from './registry';
export { WidgetView } from './WidgetView';
export { WidgetDataContext, type FetchApiData, type ApiDataRequest } from './data/WidgetDataContext';
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
